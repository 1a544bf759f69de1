"""The data every rule produces and every reporter consumes.

Positions follow ruff's JSON: rows and columns are 1-based, columns count characters (not bytes).
An end location is exclusive: it points just past the last character of the span.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

RULES_URL = "https://github.com/dtypelint/dtypelint/blob/main/rules/{code}.md"


@dataclass(frozen=True, order=True, slots=True)
class Location:
    row: int
    column: int

    def to_json(self) -> dict[str, int]:
        return {"row": self.row, "column": self.column}

    # Pickled as a constructor call: a large file's 100,000 findings cross from the processes
    # that check its segments, and the default of a slotted dataclass (a state dict set field by
    # field) made that 3.4 s of the run.
    def __reduce__(self) -> tuple[type, tuple[int, int]]:
        return Location, (self.row, self.column)


class Applicability(str, Enum):
    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text in [location, end_location) by `content` (an insertion when both are equal)."""

    content: str
    location: Location
    end_location: Location

    def to_json(self) -> dict[str, object]:
        return {
            "content": self.content,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
        }

    def __reduce__(self) -> tuple[type, tuple[str, Location, Location]]:
        return Edit, (self.content, self.location, self.end_location)


@dataclass(frozen=True, slots=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [edit.to_json() for edit in self.edits],
        }

    def __reduce__(self) -> tuple[type, tuple[Applicability, str, tuple[Edit, ...]]]:
        return Fix, (self.applicability, self.message, self.edits)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    name: str
    message: str
    filename: str
    location: Location
    end_location: Location
    fix: Fix | None = None
    # Free-form facts a rule may attach (the values involved); reporters may ignore them.
    details: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def url(self) -> str:
        return RULES_URL.format(code=self.code)

    @property
    def fixable(self) -> bool:
        return self.fix is not None

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.filename, self.location.row, self.location.column, self.code)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "filename": self.filename,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
            "fix": self.fix.to_json() if self.fix else None,
            "url": self.url,
        }

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return Diagnostic, (
            self.code,
            self.name,
            self.message,
            self.filename,
            self.location,
            self.end_location,
            self.fix,
            self.details,
        )
