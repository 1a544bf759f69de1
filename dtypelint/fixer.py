"""Applying fixes: all of a file's fixes in one pass, repeated until nothing changes.

Safety first: a result that does not parse is never kept, and files are replaced atomically with
their encoding, byte-order mark, line endings and mode bits kept.
"""

from __future__ import annotations

import ast
import bisect
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

from dtypelint import interrupts
from dtypelint.config import Config
from dtypelint.diagnostics import Applicability, Diagnostic
from dtypelint.edit_check import Span, edits_parse
from dtypelint.linter import (
    RuleClasses,
    default_rules,
    lint_source,
    parse_source,
    young_collections,
)
from dtypelint.source import SourceText

if TYPE_CHECKING:
    from dtypelint.analysis.summaries import ProjectContext

MAX_PASSES = 10
#: Temporary files beside the file being fixed: `.dtl-` + 8 random characters + this suffix.
TEMPORARY_PREFIX = ".dtl-"
TEMPORARY_SUFFIX = ".dtypelint-tmp"


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
    one's counts as applied too: two findings cured by the same edit. O(n log n) in the fixes:
    accepted edits are kept sorted and never overlap, so only the neighbours of a new edit can
    conflict with it.
    """
    spans, applied = accepted_spans(SourceText(source), diagnostics, unsafe)
    return _splice(source, spans), applied


def accepted_spans(
    text: SourceText, diagnostics: Iterable[Diagnostic], unsafe: bool
) -> tuple[list[Span], list[Diagnostic]]:
    """`apply_fixes`' choice: the accepted edits (sorted, disjoint) and the fixes applied."""
    candidates = []
    for diagnostic in diagnostics:
        if is_applicable(diagnostic, unsafe):
            spans = _spans(diagnostic, text)
            if spans:
                candidates.append((spans[0][0], diagnostic.code, spans, diagnostic))
    candidates.sort(key=lambda item: (item[0], item[1]))
    accepted = _Accepted()
    accepted_sets: set[tuple[Span, ...]] = set()
    applied: list[Diagnostic] = []
    for _, _, spans, diagnostic in candidates:
        key = tuple(spans)
        if key in accepted_sets:
            applied.append(diagnostic)
            continue
        if any(accepted.conflicts(span) for span in spans):
            continue
        for span in spans:
            accepted.add(span)
        accepted_sets.add(key)
        applied.append(diagnostic)
    return accepted.spans, applied


class _Accepted:
    """Accepted edits, sorted by start, pairwise free of conflicts (so their ends are sorted too).

    Fixes arrive in source order, so nearly every edit is appended at the end.
    """

    def __init__(self) -> None:
        self.spans: list[Span] = []
        self.starts: list[int] = []

    def conflicts(self, span: Span) -> bool:
        index = bisect.bisect_left(self.starts, span[0])
        if index > 0 and _conflict(self.spans[index - 1], span):
            return True
        return index < len(self.spans) and _conflict(self.spans[index], span)

    def add(self, span: Span) -> None:
        index = bisect.bisect_left(self.starts, span[0])
        self.starts.insert(index, span[0])
        self.spans.insert(index, span)


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
    from dtypelint.isolation import parse_depth
    from dtypelint.linter import too_deep_error

    with warnings.catch_warnings(), parse_depth():
        warnings.simplefilter("ignore")
        try:
            ast.parse(source)
        except SyntaxError as exc:
            return exc
        except ValueError as exc:
            return SyntaxError(str(exc))
        except (RecursionError, MemoryError) as exc:
            return too_deep_error(exc)
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


@young_collections()  # the fixed texts' trees, as the linted one's (linter.py)
def fix_linted(
    source: str,
    diagnostics: list[Diagnostic],
    filename: str,
    config: Config,
    unsafe: bool,
    rules: RuleClasses,
    project: ProjectContext | None = None,
    relint_when_all_fixed: bool = True,
    tree: ast.Module | None = None,
) -> FixResult:
    """`fix_source` for a source already linted once (the check run's findings are reused);
    `tree`, when given, is `source` parsed (the fixed text may then be checked a statement at a
    time: edit_check.py).

    `relint_when_all_fixed=False`: when a round fixes every finding, its text is parsed (it must)
    but not linted again. The analysis promises one round; the re-lint is the safety net, kept
    for every file but the segments of very large ones (segments.py), where it doubled the cost.
    """
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
        text = SourceText(result.source)
        spans, applied = accepted_spans(text, fixable, unsafe)
        new_source = _splice(result.source, spans)
        all_fixed = len(applied) == len(result.remaining)
        if (
            all_fixed
            and not relint_when_all_fixed
            and tree is not None
            and edits_parse(result.source, text.line_starts, tree, spans)
        ):
            tree = None  # shown to parse by its edited statements; not linted again
        else:
            tree = parse_source(new_source, filename)  # parsed once: to check it, to lint it
        if isinstance(tree, SyntaxError):
            tree = None
            new_source, applied = _without_breaking_fixes(
                result, applied, unsafe, refused, filename
            )
        if not applied or new_source == result.source:
            break
        all_fixed = len(applied) == len(result.remaining)  # some may have been refused
        result.applied.extend(applied)
        result.rounds += 1
        result.source = new_source
        if all_fixed and not relint_when_all_fixed:
            result.remaining = []
            break
        result.remaining = lint_source(new_source, filename, config, rules, project, tree=tree)
    return result


def _without_breaking_fixes(
    result: FixResult,
    applied: list[Diagnostic],
    unsafe: bool,
    refused: set[tuple[str, str, tuple[str, ...]]],
    filename: str,
) -> tuple[str, list[Diagnostic]]:
    """Drop each fix whose own result does not parse; keep the rest if together they parse.

    The breaking fixes are found by halving (a group whose result parses is kept whole), so
    one bad fix among thousands costs a few dozen parses, not one per fix.
    """
    breaking = _breaking_fixes(result.source, applied, unsafe)
    good = [diagnostic for diagnostic in applied if id(diagnostic) not in breaking]
    for diagnostic in applied:
        if id(diagnostic) not in breaking:
            continue
        error = breaking[id(diagnostic)]
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


def _breaking_fixes(source: str, fixes: list[Diagnostic], unsafe: bool) -> dict[int, SyntaxError]:
    """The fixes (by id) whose own result does not parse, with the parser's error."""
    found: dict[int, SyntaxError] = {}
    groups = [fixes] if fixes else []
    while groups:
        group = groups.pop()
        text, _ = apply_fixes(source, group, unsafe)
        error = parse_error(text)
        if error is None:
            continue
        if len(group) == 1:
            found[id(group[0])] = error
            continue
        middle = len(group) // 2
        groups += [group[:middle], group[middle:]]
    return found


def write_atomic(
    path: Path, text: str, encoding: str, bom: bool = False, original: str | None = None
) -> None:
    """Replace `path` by `text` atomically: a temporary file in the same folder, then os.replace.

    Keeps the encoding, the UTF-8 byte-order mark and the mode bits; line endings are whatever
    `text` holds. A read-only file is refused (FixWriteError) and left untouched, and so is a
    file that no longer holds `original` (the text the fixes were made from): an editor or
    another tool changed it meanwhile, and writing would lose that change.
    """

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
        with interrupts.guarded_write():
            if original is not None and _changed_since(target, original, encoding, bom):
                raise FixWriteError(
                    "fixes not written: the file changed while it was being checked; left as it is"
                )
            _replace(target, data, status)
    except interrupts.WritesStopped as exc:
        raise FixWriteError(f"fixes not written: {exc}") from None


def _changed_since(target: Path, original: str, encoding: str, bom: bool) -> bool:
    try:
        current = target.read_bytes()
    except OSError:
        return True
    return current != (codecs.BOM_UTF8 if bom else b"") + original.encode(encoding)


def _replace(target: Path, data: bytes, status: os.stat_result) -> None:
    """Write `data` to a temporary file beside `target`, then os.replace it over `target`.

    The temporary name is short (`.dtl-XXXXXXXX.dtypelint-tmp`, whatever the file's own name),
    so a file with the longest name the file system allows can be fixed too; it is removed on
    any failure, an interrupt included.
    """
    import tempfile  # only a run that writes fixes pays for it

    try:
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=TEMPORARY_PREFIX, suffix=TEMPORARY_SUFFIX
        )
    except OSError as exc:
        raise FixWriteError(f"cannot write fixes: {exc.strerror or exc}") from None
    replaced = False
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, stat.S_IMODE(status.st_mode))
        if hasattr(os, "chown") and (status.st_uid, status.st_gid) != _owner(temporary):
            # Keep the owner when we may (root fixing a user's file); otherwise it stays ours.
            with contextlib.suppress(OSError):
                os.chown(temporary, status.st_uid, status.st_gid)
        os.replace(temporary, target)
        replaced = True
    except OSError as exc:
        raise FixWriteError(f"cannot write fixes: {exc.strerror or exc}") from None
    finally:
        if not replaced:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _owner(path: str) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_uid, status.st_gid
