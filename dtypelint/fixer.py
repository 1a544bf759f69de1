"""Applying fixes: all of a file's fixes in one pass, repeated until nothing changes.

Safety first: a result that does not parse is never kept, and files are replaced atomically with
their encoding, byte-order mark, line endings and mode bits kept.
"""

from __future__ import annotations

import ast
import codecs
import contextlib
import itertools
import os
import stat
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from dtypelint.config import Config
from dtypelint.diagnostics import Applicability, Diagnostic
from dtypelint.linter import RuleClasses, default_rules, lint_source
from dtypelint.source import SourceText

if TYPE_CHECKING:
    from dtypelint.analysis.summaries import ProjectContext

MAX_PASSES = 10


@dataclass
class FixResult:
    source: str
    applied: list[Diagnostic] = field(default_factory=list)
    remaining: list[Diagnostic] = field(default_factory=list)
    # Fixes refused because their result would not parse, one line each.
    warnings: list[str] = field(default_factory=list)
    # Rounds of fixes applied. The analysis sees in one check what fixing will change, so one
    # round reaches the fixed point; the re-lint after each round is only a safety net.
    rounds: int = 0


class FixWriteError(OSError):
    """The fixed text could not be written; the file on disk is unchanged."""


def is_applicable(diagnostic: Diagnostic, unsafe: bool) -> bool:
    fix = diagnostic.fix
    return fix is not None and (unsafe or fix.applicability is Applicability.SAFE)


Span = tuple[int, int, str]  # [start, end) character offsets and the replacement


def _spans(diagnostic: Diagnostic, source: SourceText) -> list[Span] | None:
    """The fix's edits as sorted offsets; None when they are out of range or overlap each other."""
    assert diagnostic.fix is not None
    size = len(source.text)
    spans = []
    for edit in diagnostic.fix.edits:
        if not 1 <= edit.location.row <= len(source.line_starts):
            return None
        if not 1 <= edit.end_location.row <= len(source.line_starts):
            return None
        start, end = source.offset(edit.location), source.offset(edit.end_location)
        if not 0 <= start <= end <= size:
            return None
        spans.append((start, end, edit.content))
    spans.sort(key=lambda span: (span[0], span[1]))
    for before, after in itertools.pairwise(spans):
        if _conflict(before, after):
            return None
    return spans


def _conflict(a: Span, b: Span) -> bool:
    """Edits conflict when they overlap, or start at the same point (their order is ambiguous)."""
    return a[0] == b[0] or (a[0] < b[1] and b[0] < a[1])


def apply_fixes(
    source: str, diagnostics: Iterable[Diagnostic], unsafe: bool
) -> tuple[str, list[Diagnostic]]:
    """Apply every applicable fix that does not overlap an earlier accepted one.

    Fixes are taken in source order; one that overlaps is left for the next pass (after a
    re-lint its finding comes back with fresh positions). A fix whose edits equal an accepted
    one's counts as applied too: two findings cured by the same edit.
    """
    text = SourceText(source)
    candidates = []
    for diagnostic in diagnostics:
        if is_applicable(diagnostic, unsafe):
            spans = _spans(diagnostic, text)
            if spans:
                candidates.append((spans[0][0], diagnostic.code, spans, diagnostic))
    candidates.sort(key=lambda item: (item[0], item[1]))
    accepted: list[Span] = []
    accepted_sets: list[list[Span]] = []
    applied: list[Diagnostic] = []
    for _, _, spans, diagnostic in candidates:
        if spans in accepted_sets:
            applied.append(diagnostic)
            continue
        if any(_conflict(span, taken) for span in spans for taken in accepted):
            continue
        accepted.extend(spans)
        accepted_sets.append(spans)
        applied.append(diagnostic)
    return _splice(source, accepted), applied


def _splice(source: str, spans: Sequence[Span]) -> str:
    pieces = []
    position = 0
    for start, end, content in sorted(spans, key=lambda span: (span[0], span[1])):
        pieces.append(source[position:start])
        pieces.append(content)
        position = end
    pieces.append(source[position:])
    return "".join(pieces)


def parse_error(source: str) -> SyntaxError | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(source)
        except SyntaxError as exc:
            return exc
        except ValueError as exc:
            return SyntaxError(str(exc))
    return None


def _fix_key(diagnostic: Diagnostic) -> tuple[str, str, tuple[str, ...]]:
    # Positions move between passes; a fix is recognised by what it says and inserts.
    assert diagnostic.fix is not None
    contents = tuple(edit.content for edit in diagnostic.fix.edits)
    return (diagnostic.code, diagnostic.fix.message, contents)


def fix_source(
    source: str,
    filename: str = "<stdin>",
    config: Config | None = None,
    unsafe: bool = False,
    rules: RuleClasses | None = None,
) -> FixResult:
    """Fix `source` until it is stable; the result always parses (else fixes are refused)."""
    config = config if config is not None else Config()
    rules = default_rules() if rules is None else rules
    diagnostics = lint_source(source, filename, config, rules)
    return fix_linted(source, diagnostics, filename, config, unsafe, rules)


def fix_linted(
    source: str,
    diagnostics: list[Diagnostic],
    filename: str,
    config: Config,
    unsafe: bool,
    rules: RuleClasses,
    project: ProjectContext | None = None,
) -> FixResult:
    """`fix_source` for a source already linted once (the check run's findings are reused)."""
    result = FixResult(source, remaining=diagnostics)
    refused: set[tuple[str, str, tuple[str, ...]]] = set()
    for _ in range(MAX_PASSES):
        fixable = [
            diagnostic
            for diagnostic in result.remaining
            if is_applicable(diagnostic, unsafe) and _fix_key(diagnostic) not in refused
        ]
        if not fixable:
            break
        new_source, applied = apply_fixes(result.source, fixable, unsafe)
        if parse_error(new_source) is not None:
            new_source, applied = _without_breaking_fixes(
                result, applied, unsafe, refused, filename
            )
        if not applied or new_source == result.source:
            break
        result.applied.extend(applied)
        result.rounds += 1
        result.source = new_source
        result.remaining = lint_source(new_source, filename, config, rules, project)
    return result


def _without_breaking_fixes(
    result: FixResult,
    applied: list[Diagnostic],
    unsafe: bool,
    refused: set[tuple[str, str, tuple[str, ...]]],
    filename: str,
) -> tuple[str, list[Diagnostic]]:
    """Drop each fix whose own result does not parse; keep the rest if together they parse."""
    good = []
    for diagnostic in applied:
        alone, _ = apply_fixes(result.source, [diagnostic], unsafe)
        error = parse_error(alone)
        if error is None:
            good.append(diagnostic)
            continue
        refused.add(_fix_key(diagnostic))
        where = f"{filename}:{diagnostic.location.row}:{diagnostic.location.column}"
        result.warnings.append(
            f"{where}: {diagnostic.code} fix not applied: the result would not parse "
            f"({error.msg}); please report this at the rule's page {diagnostic.url}"
        )
    new_source, kept = apply_fixes(result.source, good, unsafe)
    if parse_error(new_source) is not None:  # fine alone, broken together: apply none
        for diagnostic in good:
            refused.add(_fix_key(diagnostic))
        result.warnings.append(
            f"{filename}: fixes not applied: together they would not parse; "
            "the file is left as it was"
        )
        return result.source, []
    return new_source, kept


def write_atomic(path: Path, text: str, encoding: str, bom: bool = False) -> None:
    """Replace `path` by `text` atomically: a temporary file in the same folder, then os.replace.

    Keeps the encoding, the UTF-8 byte-order mark and the mode bits; line endings are whatever
    `text` holds. A read-only file is refused (FixWriteError) and left untouched.
    """
    import tempfile  # only when writing: loading it costs a check run more than the write

    target = Path(os.path.realpath(path))  # write through a symlink, don't replace the link
    try:
        status = target.stat()
    except OSError as exc:
        raise FixWriteError(f"cannot write fixes: {exc.strerror or exc}") from None
    writable_bits = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    # Checked by hand because os.access says yes to root even for a file marked read-only.
    if not status.st_mode & writable_bits or not os.access(target, os.W_OK):
        raise FixWriteError("cannot write fixes: the file is read-only; left unchanged")
    try:
        data = (codecs.BOM_UTF8 if bom else b"") + text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise FixWriteError(
            f"cannot write fixes: the fixed text cannot be encoded as {encoding} ({exc.reason})"
        ) from None
    try:
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".dtypelint-tmp"
        )
    except OSError as exc:
        raise FixWriteError(f"cannot write fixes: {exc.strerror or exc}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, stat.S_IMODE(status.st_mode))
        if hasattr(os, "chown") and (status.st_uid, status.st_gid) != _owner(temporary):
            # Keep the owner when we may (root fixing a user's file); otherwise it stays ours.
            with contextlib.suppress(OSError):
                os.chown(temporary, status.st_uid, status.st_gid)
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise FixWriteError(f"cannot write fixes: {exc.strerror or exc}") from None


def _owner(path: str) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_uid, status.st_gid
