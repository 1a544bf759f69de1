"""Very large sources, checked and fixed one segment of top-level statements at a time.

Python's `ast` costs about 170 bytes of memory per byte of source, so a 20 MB generated module
would take 3.5 GB to parse and as much again to analyse. A source over source.LARGE_SOURCE characters is
therefore split where top-level statements start (`def`, `class`, decorators, imports,
`NAME = ...`) into segments of about SEGMENT_SIZE, and each segment is parsed, analysed and fixed
on its own: memory is bounded by the segment, not by the file.

Where to split is guessed from line starts and proved by the parser. A segment that ends inside a
string, a bracket, a continuation line or a decorator cannot parse on its own (the tokenizer of
the part is the file's tokenizer up to that point), so a segment that fails is merged with the
next ones, doubling, until it parses or the file ends; then its error is the file's DTL000, the
first one Python reports. When the pieces on both sides of a split parse, they are exactly the
file's statements on each side, so a function is analysed as it would be in the whole file.

What a segment does not see of the others: their functions, classes and module-level names (a
helper defined in another segment is unknown, as one from an unchecked module). Their imports it
does see: every top-level `import` / `from ... import` of the file is appended to each segment.

A single statement larger than a segment that is a data literal (`TABLE = [...]`, a module-level
assignment holding no function, so no finding) is only checked to parse, a run of its elements
at a time inside its own brackets.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dtypelint.diagnostics import Diagnostic, Edit, Fix, Location
from dtypelint.source import LINE_END, count_rows

if TYPE_CHECKING:
    from dtypelint.analysis.summaries import ProjectContext
    from dtypelint.config import Config
    from dtypelint.linter import RuleClasses

#: The size a segment grows to before the next top-level statement starts a new one.
SEGMENT_SIZE = 1 << 18

# Patterns are compiled on first use (`re` keeps them): most runs never split a source, and
# compiling them all at import cost a one-file run 3 ms.
#: A line that may start a top-level statement (matched at the newline before it).
_STATEMENT_START = (
    r"\n(?=@|(?:async[ \t]+)?def[ \t]|class[ \t]|import[ \t]|from[ \t]"
    r"|[A-Za-z_][\w.]*[ \t]*(?::[^=\r\n]*)?=(?!=))"
)
_IMPORT_START = r"\n(?=import[ \t]|from[ \t])"
_DEFINITION = r"(?m)^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]"
#: The end of a line whose last token is a comma (no comment on it): an element ends there.
_ELEMENT_END = r"(?m)^[^#\r\n]*,[ \t]*(?:\r\n|\r|\n)"
#: Strings, comments and brackets: enough to know the open brackets at a point.
_TOKEN = (
    r"""(?s)'''(?:[^'\\]|\\.|'(?!''))*'''|\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\""""
    r"""|'(?:[^'\\\r\n]|\\.)*'|"(?:[^"\\\r\n]|\\.)*"|\#[^\r\n]*|[(\[{]|[)\]}]"""
)
_CLOSER = {"(": ")", "[": "]", "{": "}"}
#: An import statement spreads over at most this many lines (`from x import (\n a,\n ...)`).
_IMPORT_LINES = 200


@dataclass(frozen=True)
class Segment:
    start: int  # character offsets into the file's text
    end: int
    row: int  # the file's row of its first line (1-based)

    def text(self, source: str) -> str:
        return source[self.start : self.end]


def split(text: str) -> list[Segment]:
    """The file in segments of about SEGMENT_SIZE that start at top-level statements."""
    starts = [0, *(match.end() for match in re.finditer(_STATEMENT_START, text))]
    starts = [start for start in starts if not _after_decorator(text, start)]
    bounds: list[int] = [0]
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        grown = start - bounds[-1]
        piece = end - start
        if grown and (grown + piece > SEGMENT_SIZE or piece > SEGMENT_SIZE):
            bounds.append(start)  # a piece bigger than a segment stands alone
    segments = []
    row = 1
    for start, end in zip(bounds, [*bounds[1:], len(text)], strict=True):
        if start == end:
            continue
        segments.append(Segment(start, end, row))
        row += count_rows(text[start:end])
    return segments


def _after_decorator(text: str, start: int) -> bool:
    """Whether the line before `start` is a decorator (the definition belongs with it)."""
    if start == 0:
        return False
    previous = text.rfind("\n", 0, start - 1) + 1
    return text.startswith("@", previous)


def merged(first: Segment, last: Segment) -> Segment:
    return Segment(first.start, last.end, first.row)


# -- imports every segment sees ---------------------------------------------------------------


@dataclass(frozen=True)
class TopImport:
    start: int
    end: int
    text: str


def top_level_imports(text: str) -> list[TopImport]:
    """The file's top-level imports (`from __future__` aside: it must come first in a module)."""
    found = []
    starts = [0] if text.startswith(("import ", "from ")) else []
    starts += [match.end() for match in re.finditer(_IMPORT_START, text)]
    for start in starts:
        statement = _import_statement(text, start)
        if statement is not None:
            found.append(statement)
    return found


def _import_statement(text: str, start: int) -> TopImport | None:
    end = start
    for _ in range(_IMPORT_LINES):
        match = LINE_END.search(text, end)
        end = match.end() if match else len(text)
        try:
            tree = ast.parse(text[start:end])
        except (SyntaxError, ValueError):
            if end == len(text):
                return None
            continue
        node = tree.body[0] if len(tree.body) == 1 else None
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            return None
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            return None
        return TopImport(start, end, text[start:end].rstrip("\r\n"))
    return None


def imports_suffix(imports: list[TopImport], segment: Segment, text: str, newline: str) -> str:
    """The imports from outside `segment`, as lines appended after its text."""
    outside = [imp.text for imp in imports if not segment.start <= imp.start < segment.end]
    if not outside:
        return ""
    body = segment.text(text)
    lead = "" if not body or body.endswith(("\n", "\r")) else newline
    return lead + newline.join(outside) + newline


# -- statements too big to parse at once --------------------------------------------------------


def is_data_statement(text: str, segment: Segment) -> bool:
    """Whether `segment` is one big module-level assignment of a literal that parses, checked a
    run of elements at a time: it holds no function, so it has no finding and no fix."""
    if segment.end - segment.start <= SEGMENT_SIZE:
        return False
    head = text[segment.start : segment.start + 200]
    if not re.match(r"[A-Za-z_][\w.]*[ \t]*(?::[^=\r\n]*)?=(?!=)", head):
        return False
    bounds = list(_element_bounds(text, segment))
    if len(bounds) < 2:
        return False
    openers = _open_brackets(text[segment.start : bounds[0]])
    if not openers:
        return False
    closers = "".join(_CLOSER[bracket] for bracket in reversed(openers))
    last = text[bounds[-1] : segment.end]
    if re.search(_DEFINITION, last):
        return False  # statements after the literal define something: analyse them
    pieces = [text[segment.start : bounds[0]] + closers]
    pieces += [openers + text[a:b] + closers for a, b in itertools.pairwise(bounds)]
    pieces.append(openers + last)
    return all(_parses(piece) for piece in pieces)


def _element_bounds(text: str, segment: Segment) -> Iterator[int]:
    """Ends of element lines, about one segment apart (the first one right after the head)."""
    position = segment.start
    while True:
        match = re.compile(_ELEMENT_END).search(text, position, segment.end)
        if match is None:
            return
        yield match.end()
        position = match.end() + SEGMENT_SIZE
        if position >= segment.end:
            return


def _open_brackets(head: str) -> str:
    stack: list[str] = []
    for match in re.finditer(_TOKEN, head):
        token = match.group()
        if token in _CLOSER:
            stack.append(token)
        elif token in ")]}" and (not stack or _CLOSER[stack.pop()] != token):
            return ""
    return "".join(stack)


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


# -- moving a segment's findings to the file's rows ---------------------------------------------


def shifted(diagnostic: Diagnostic, rows: int) -> Diagnostic:
    """`diagnostic`, found in a segment, at the file's rows (`rows` lines before the segment)."""
    if rows == 0:
        return diagnostic
    fix = diagnostic.fix
    if fix is not None:
        edits = tuple(_shifted_edit(edit, rows) for edit in fix.edits)
        fix = Fix(fix.applicability, fix.message, edits)
    # built directly: dataclasses.replace took a third of a 100,000-finding file's reporting
    return Diagnostic(
        diagnostic.code,
        diagnostic.name,
        diagnostic.message,
        diagnostic.filename,
        _down(diagnostic.location, rows),
        _down(diagnostic.end_location, rows),
        fix,
        diagnostic.details,
    )


def _shifted_edit(edit: Edit, rows: int) -> Edit:
    return Edit(edit.content, _down(edit.location, rows), _down(edit.end_location, rows))


def _down(location: Location, rows: int) -> Location:
    return Location(location.row + rows, location.column)


def within(diagnostic: Diagnostic, rows: int) -> bool:
    """Whether a finding and its fix lie in the segment's first `rows` rows (not in the imports
    appended after it)."""
    spans = [(diagnostic.location, diagnostic.end_location)]
    if diagnostic.fix is not None:
        spans += [(edit.location, edit.end_location) for edit in diagnostic.fix.edits]
    return all(start.row <= rows and _ends_by(end, rows) for start, end in spans)


def _ends_by(end: Location, rows: int) -> bool:
    return end.row <= rows or (end.row == rows + 1 and end.column == 1)


@dataclass
class SegmentedResult:
    """A large file's results, put together from its segments."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    source: str = ""
    applied: list[Diagnostic] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Parsed:
    segment: Segment
    suffix: str  # the imports appended after its text
    tree: ast.Module | SyntaxError | None  # None: a data statement, already checked
    #: merging stopped at a limit before the file's end: the error may be the split's
    cut: bool = False


def _parsed_segments(
    job: _Job, first: int, stop: int, limit: int | None = None
) -> Iterator[tuple[_Parsed, int]]:
    """Segments `first` to `stop` in order, each parsed with the file's imports appended, and
    the index after it; a segment that does not parse is merged with the next ones (doubling,
    past `stop` if need be) until it does or the file ends. With `limit`, merging stops there:
    the last segment yielded may then not parse only for want of what follows (`_Parsed.cut`)."""
    from dtypelint.linter import parse_source

    text, segments = job.text, job.segments
    last = len(segments) if limit is None else min(limit, len(segments))
    index = first
    while index < stop:
        if is_data_statement(text, segments[index]):
            index += 1
            yield _Parsed(segments[index - 1], "", None), index
            continue
        count = 1
        while True:
            segment = merged(segments[index], segments[index + count - 1])
            suffix = imports_suffix(job.imports, segment, text, job.newline)
            tree = parse_source(segment.text(text) + suffix, job.filename)
            if not isinstance(tree, SyntaxError) or index + count >= last:
                break
            count = min(2 * count, last - index)
        index += count
        parsed = _Parsed(
            segment, suffix, tree, isinstance(tree, SyntaxError) and index < len(segments)
        )
        del tree  # the caller drops the tree from `parsed` once used: then it is freed at once
        yield parsed, index


def check_large(
    text: str,
    filename: str,
    config: Config,
    rules: RuleClasses,
    project: ProjectContext,
    fix: bool = False,
    unsafe: bool = False,
    jobs: int | None = None,
) -> SegmentedResult:
    """`lint_source` (and with `fix`, `fix_linted`) for a large source, a segment at a time;
    runs of segments go to `jobs` worker processes (None: one per core)."""
    from dtypelint.linter import file_noqa
    from dtypelint.source import SourceText

    silenced = frozenset() if config.ignore_noqa else file_noqa(SourceText(text))
    job = _Job(text, split(text), filename, config, rules, project, fix, unsafe, silenced)
    with _young_collections():
        return _check_segments(job, jobs)


@contextlib.contextmanager
def _young_collections() -> Iterator[None]:
    """Collect garbage once a segment, among the segment's own objects only.

    Python's automatic collections would scan the findings kept so far again and again (they
    took 40% of the time on a 2 MB file); with them off and `gc.collect(0)` after each segment,
    a segment's cycles are freed and what it keeps moves out of the young generation for good.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class _Job:
    """What every range of segments is checked with (a forked worker inherits it)."""

    text: str
    segments: list[Segment]
    filename: str
    config: Config
    rules: RuleClasses
    project: ProjectContext
    fix: bool
    unsafe: bool
    silenced: frozenset[str] | None
    imports: list[TopImport] = field(init=False)  # derived from `text`
    newline: str = field(init=False)

    def __post_init__(self) -> None:
        self.imports = top_level_imports(self.text)
        match = LINE_END.search(self.text)
        self.newline = match.group() if match else "\n"


@dataclass
class _RangeResult:
    """One run of segments, `first` up to `end` (a failed split may take it past its range).

    Remaining findings are at the file's rows as if no range before this one had changed its
    row count (`base` rows before it): then the parent has nothing to shift."""

    first: int
    end: int
    stop: int  # where the range was asked to end
    base: int = 0  # the file's rows before the range's first segment
    #: stopped at its merging limit (its first split was likely inside a string): redo it
    cut: bool = False
    pieces: list[str] = field(default_factory=list)
    rows: int = 0  # rows of the fixed pieces
    remaining: list[Diagnostic] = field(default_factory=list)
    applied: list[Diagnostic] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    syntax_error: list[Diagnostic] | None = None
    exports: dict[str, object] = field(default_factory=dict)
    imports: set[str] = field(default_factory=set)
    factory_imports: set[str] = field(default_factory=set)
    plain_imports: set[str] = field(default_factory=set)
    reexports: dict[str, str] = field(default_factory=dict)


#: Segments in one job of a worker pool: about 2 MB of source.
SEGMENTS_PER_JOB = 8


def _check_segments(job: _Job, jobs: int | None) -> SegmentedResult:
    count = len(job.segments)
    starts = list(range(0, count, SEGMENTS_PER_JOB))
    ranges = [(first, min(first + SEGMENTS_PER_JOB, count)) for first in starts]
    workers = _workers(jobs, len(ranges))
    one = workers <= 1
    results = [_check_range(job, 0, count)] if one else _in_pool(job, ranges, workers)
    result = SegmentedResult()
    pieces: list[str] = []
    rows = 0
    position = 0  # the next segment to account for
    for part in results:
        if part.stop <= position:
            continue  # an earlier range took these segments along (a split that did not parse)
        if part.first != position or part.cut:  # it started at a split that does not parse
            part = _check_range(job, position, part.stop)
        if part.syntax_error is not None:
            return SegmentedResult(part.syntax_error, job.text)
        moved = rows - part.base  # rows the fixes of earlier ranges added or removed
        result.diagnostics += (
            [shifted(d, moved) for d in part.remaining] if moved else part.remaining
        )
        result.applied += part.applied
        result.warnings += part.warnings
        _add_project_facts(job.project, part)
        pieces += part.pieces
        rows += part.rows
        position = part.end
    result.source = "".join(pieces) if job.fix else job.text
    return result


def _workers(jobs: int | None, ranges: int) -> int:
    """Processes for the ranges: none inside a worker already, or where fork is missing."""
    import sys

    from dtypelint import interrupts
    from dtypelint.scheduling import default_jobs

    if ranges < 2 or interrupts.worker_mode() or sys.platform != "linux":
        return 1
    return max(1, min(jobs or default_jobs(), ranges))


_inherited: _Job | None = None


def _in_pool(job: _Job, ranges: list[tuple[int, int]], workers: int) -> list[_RangeResult]:
    """The ranges checked in forked workers (workers.py: they die with the run and never hold
    its output); each worker frees a range's trees before the next, so the parent keeps only
    the results."""
    import multiprocessing

    from dtypelint.linter import RuleError
    from dtypelint.workers import WorkerPool

    global _inherited
    _inherited = job
    gc.freeze()  # the workers' collectors then leave the pages shared with this process alone
    try:
        with WorkerPool(
            max_workers=workers, mp_context=multiprocessing.get_context("fork")
        ) as pool:
            items = [(f"{first}:{end}", job.filename) for first, end in ranges]
            results = list(pool.map(_range_in_worker, items))
    finally:
        gc.unfreeze()
        _inherited = None
    for part in results:
        if not isinstance(part, _RangeResult):  # its worker died (the system's OOM killer)
            raise RuleError(f"{job.filename}: a worker checking part of this file died")
    return results


def _range_in_worker(item: tuple[str, str]) -> _RangeResult:
    assert _inherited is not None
    first, end = (int(number) for number in item[0].split(":"))
    # A range that starts inside a string could merge up to the file's end, parsing all of it:
    # it stops one range further and is redone in the parent from where the previous one ended.
    return _check_range(_inherited, first, end, limit=end + SEGMENTS_PER_JOB)


def _check_range(job: _Job, first: int, stop: int, limit: int | None = None) -> _RangeResult:
    """Segments `first` to `stop` (and further, up to `limit`, while a split there does not
    parse)."""
    from dtypelint.analysis.summaries import ProjectContext as Context
    from dtypelint.linter import lint_source

    text, filename = job.text, job.filename
    result = _RangeResult(first, first, stop, base=_rows_before(job, first))
    for parsed, end in _parsed_segments(job, first, stop, limit):
        if parsed.cut:
            result.cut = True
            return result
        result.end = end
        body = parsed.segment.text(text)
        if parsed.tree is None:
            result.pieces.append(body)
            result.rows += count_rows(body)
            continue
        part = Context(job.project.module_name, job.project.summaries)
        found = lint_source(
            body + parsed.suffix, filename, job.config, job.rules, part, tree=parsed.tree
        )
        if isinstance(parsed.tree, SyntaxError):  # the file does not parse: that is all it has
            result.syntax_error = [shifted(d, parsed.segment.row - 1) for d in found]
            return result
        rows = count_rows(body)
        found = _file_wide(_in_segment(found, body, rows), job.silenced)
        new_body, remaining, applied, warnings = _fixed_segment(
            body, parsed.suffix, parsed.tree, found, filename, job, part
        )
        offset = parsed.segment.row - 1
        result.remaining += [shifted(d, result.base + result.rows) for d in remaining]
        result.applied += [shifted(d, offset) for d in applied]
        result.warnings += [_shift_warning(w, filename, offset) for w in warnings]
        _add_project_facts(result, part)
        result.pieces.append(new_body)
        result.rows += rows if new_body is body else count_rows(new_body)
        parsed.tree = None  # freed now, so the collection below need not walk it
        gc.collect(0)
    return result


def _rows_before(job: _Job, first: int) -> int:
    return job.segments[first].row - 1 if first < len(job.segments) else 0


def _fixed_segment(
    body: str,
    suffix: str,
    tree: ast.Module,
    found: list[Diagnostic],
    filename: str,
    job: _Job,
    project: ProjectContext,
) -> tuple[str, list[Diagnostic], list[Diagnostic], list[str]]:
    """The segment's fixed text, its remaining findings, the fixes applied and any warnings
    (`tree`: the segment with its imports `suffix`, parsed)."""
    from dtypelint.fixer import fix_linted, is_applicable

    if not job.fix or not any(is_applicable(d, job.unsafe) for d in found):
        return body, found, [], []
    # A segment whose findings are all fixed is parsed, not linted again (fixer.py): a 20 MB
    # generated module's --fix took twice its check.
    fixed = fix_linted(
        body + suffix,
        found,
        filename,
        job.config,
        job.unsafe,
        job.rules,
        project,
        relint_when_all_fixed=False,
        tree=tree,
    )
    if not fixed.source.endswith(suffix):  # never: no fix edits the appended imports
        return body, found, [], [f"{filename}: fixes not applied to a segment of this file"]
    new_body = fixed.source[: len(fixed.source) - len(suffix)]
    remaining = _in_segment(fixed.remaining, new_body, count_rows(new_body))
    return new_body, remaining, fixed.applied, fixed.warnings


def _in_segment(found: list[Diagnostic], body: str, line_ends: int) -> list[Diagnostic]:
    """The findings in `body`'s own rows (`line_ends`: its count_rows), not the imports after."""
    rows = line_ends + (0 if body.endswith(("\n", "\r")) else 1)
    return [diagnostic for diagnostic in found if within(diagnostic, rows)]


def _file_wide(found: list[Diagnostic], silenced: frozenset[str] | None) -> list[Diagnostic]:
    """Drop what the file's `# dtypelint: noqa` comment silences (it is in the first segment
    only, so the linter sees it there alone)."""
    if silenced is None:
        return []
    return [diagnostic for diagnostic in found if diagnostic.code not in silenced]


def _shift_warning(warning: str, filename: str, rows: int) -> str:
    prefix = f"{filename}:"
    if rows == 0 or not warning.startswith(prefix):
        return warning
    rest = warning[len(prefix) :]
    row, colon, tail = rest.partition(":")
    return f"{prefix}{int(row) + rows}{colon}{tail}" if row.isdigit() and colon else warning


def _add_project_facts(
    into: ProjectContext | _RangeResult, part: ProjectContext | _RangeResult
) -> None:
    """What a segment's analysis tells the project (exports, uses), added to a range's or the
    file's facts."""
    into.exports.update(part.exports)  # type: ignore[arg-type]
    into.imports |= part.imports
    into.factory_imports |= part.factory_imports
    into.plain_imports |= part.plain_imports
    into.reexports.update(part.reexports)
