"""Text positions: converting between ast's (line, utf-8 byte column) and our 1-based (row, char column)."""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator, Mapping
from functools import cached_property

from dtypelint.diagnostics import Location

# Python's tokenizer ends lines at \r\n, \r or \n only (str.splitlines would also split on \x0c etc.).
#: Any line ending: `\r\n`, `\r` or `\n` (linter.py and segments.py use it too).
LINE_END = re.compile(r"\r\n|\r|\n")


#: Sources longer than this (characters) are checked in segments (segments.py, imported only
#: for them: its start-up cost is not a one-file run's).
LARGE_SOURCE = 1 << 20


def is_large(text: str) -> bool:
    return len(text) > LARGE_SOURCE


def count_rows(text: str) -> int:
    """Line endings in `text`: how many rows a segment that ends with one adds."""
    # LINE_END's matches, counted without a match object each: a `\r\n` is one of them
    return text.count("\n") + text.count("\r") - text.count("\r\n")


class SourceText:
    """A decoded source file with fast position conversions."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def line_starts(self) -> list[int]:
        starts = [0]
        starts.extend(match.end() for match in LINE_END.finditer(self.text))
        return starts

    @cached_property
    def newline(self) -> str:
        """The file's dominant line ending, used for any line we insert."""
        match = LINE_END.search(self.text)
        return match.group(0) if match else "\n"

    def line(self, row: int) -> str:
        """Line `row` (1-based) without its line ending."""
        starts = self.line_starts
        if row < 1 or row > len(starts):
            return ""
        start = starts[row - 1]
        end = starts[row] if row < len(starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def offset(self, location: Location) -> int:
        """Character offset of a 1-based (row, column) location."""
        return self.line_starts[location.row - 1] + location.column - 1

    def location_at(self, offset: int) -> Location:
        starts = self.line_starts
        row = max(bisect.bisect_right(starts, offset) - 1, 0)  # the last line start <= offset
        return Location(row + 1, offset - starts[row] + 1)

    @cached_property
    def is_ascii(self) -> bool:
        return self.text.isascii()

    def from_ast(self, lineno: int, byte_col: int) -> Location:
        """ast gives utf-8 byte columns; convert to a 1-based character column."""
        if self.is_ascii:  # byte and character columns agree (most files: no line to cut)
            return Location(lineno, byte_col + 1)
        line = self.line(lineno)
        if line.isascii():
            return Location(lineno, byte_col + 1)
        return Location(lineno, len(line.encode("utf-8")[:byte_col].decode("utf-8", "replace")) + 1)

    def start(self, node: ast.AST) -> Location:
        return self.from_ast(node.lineno, node.col_offset)  # type: ignore[attr-defined]

    def end(self, node: ast.AST) -> Location:
        return self.from_ast(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def segment(self, node: ast.AST) -> str:
        return self.text[self.offset(self.start(node)) : self.offset(self.end(node))]


class SourceLines(Mapping[int, str]):
    """A file's lines by row (1-based, line endings cut), read from its text when asked.

    A very large file's findings keep these instead of the rows around each finding
    (`engine.FileOutcome.lines`): gathering 100,000 findings' context took a second of a 20 MB
    check whose report showed none of it (`--statistics`, concise, JSON)."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def _source(self) -> SourceText:
        return SourceText(self.text)

    def __getitem__(self, row: int) -> str:
        if not isinstance(row, int) or not 1 <= row <= len(self):
            raise KeyError(row)
        return self._source.line(row)

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, len(self) + 1))

    @cached_property
    def _rows(self) -> int:
        return count_rows(self.text) + 1

    def __len__(self) -> int:
        return self._rows
