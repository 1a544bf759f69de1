"""Finding files, reading them safely, running the rules, and doing it for many files at once.

Per file the source is parsed once with `ast`; the rules share one `ModuleAnalysis`. Nothing here
imports torch.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from dtypelint.config import Config, relative_parts
from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.files import walked_file_wanted
from dtypelint.fixer import FixWriteError, fix_linted, is_applicable, write_atomic
from dtypelint.isolation import internal_error, isolated
from dtypelint.linter import (
    DecodedSource,
    RuleClasses,
    RuleError,
    decode_source,
    default_rules,
    file_noqa,
    line_silences,
    lint_source,
    parse_source,
    read_source,
    rule_names,
    run_rules,
    syntax_error_diagnostic,
)
from dtypelint.rules import IO_ERROR_CODE, IO_ERROR_NAME
from dtypelint.source import SourceLines, SourceText, is_large

# The linting layer's names, re-exported: engine is the file-level API most callers use.
__all__ = [
    "DecodedSource",
    "FileOutcome",
    "RuleClasses",
    "RuleError",
    "RunOptions",
    "decode_source",
    "default_rules",
    "discover_files",
    "file_noqa",
    "line_silences",
    "lint_paths",
    "lint_source",
    "parse_source",
    "process_decoded",
    "process_file",
    "read_source",
    "run_rules",
    "syntax_error_diagnostic",
]

if TYPE_CHECKING:
    from dtypelint.analysis.summaries import ProjectContext
    from dtypelint.analysis.values import Summary
    from dtypelint.cache import Cache
    from dtypelint.progress import Progress
    from dtypelint.rules.base import Rule


#: Folders never walked into unless named on the command line (ruff's list, plus `build`).
DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".dtypelint_cache",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)
PYTHON_SUFFIXES = (".py", ".pyi")
#: Source lines kept above and below each finding: fingerprints (gate.py) hash the code lines
#: around a finding, so that a baseline still recognises it after lines move.
CONTEXT_ROWS = 3


# ---------------------------------------------------------------------------------------------
# Discovery


def discover_files(paths: Sequence[str], config: Config) -> list[Path]:
    """The Python files to check, in a stable order.

    Files named explicitly are always checked; folders are walked for *.py and *.pyi, skipping
    the default excludes (or `exclude`), `extend-exclude` and what `.gitignore` ignores.
    """
    return [path for path, _ in discover_named_files(paths, config)]


def discover_named_files(
    paths: Sequence[str], config: Config, *, force_exclude: bool = False
) -> list[tuple[Path, str]]:
    """`discover_files` with the name to show for each file: spelled as on the command line.

    `./src/m.py` stays `./src/m.py`; files found in folder `./src` are `./src/...`; files found
    in `.` are shown relative to it (`pkg/m.py`). With `force_exclude` (ruff's option), the
    excludes also apply to paths named explicitly: pre-commit passes every staged file.
    """
    patterns = tuple(DEFAULT_EXCLUDE if config.exclude is None else config.exclude)
    patterns += config.extend_exclude
    found: dict[str, tuple[Path, str]] = {}
    named_excluded = _ExcludeCache(patterns, config.project_root, 0)

    def add(path: Path, shown: str) -> None:
        found.setdefault(os.path.normcase(os.path.abspath(path)), (path, shown))

    for raw in paths:
        path = Path(raw)
        if force_exclude and (
            named_excluded.folder(path) if path.is_dir() else named_excluded.file(path)
        ):
            continue
        if path.is_dir():
            prefix = "" if path == Path(".") else raw.rstrip("/" + os.sep) + "/"
            for file in _walk_folder(path, patterns, config.project_root):
                add(file, prefix + file.relative_to(path).as_posix())
        else:  # explicit files, existing or not (a missing one is reported as DTL900 when read)
            add(path, raw.rstrip("/" + os.sep) or raw)
    return sorted(found.values(), key=lambda item: item[0].as_posix())


def _walk_folder(folder: Path, patterns: Sequence[str], root: Path | None) -> Iterator[Path]:
    # Names above the walked folder are the user's choice, not something to exclude.
    first = len(relative_parts(folder, root))
    excluded = _ExcludeCache(patterns, root, first)
    listed = _git_listed_files(folder)
    if listed is not None:
        for name in listed:
            if name.endswith(PYTHON_SUFFIXES):
                file = folder / name
                if not excluded.file(file) and walked_file_wanted(file):
                    yield file
        return
    yield from _walk_without_git(folder, excluded)


class _ExcludeCache:
    """Exclude tests, remembered per folder (most files share their folder with others)."""

    def __init__(self, patterns: Sequence[str], root: Path | None, first: int) -> None:
        from dtypelint.pathmatch import PatternSet

        self.patterns = patterns
        self.root = root
        self.first = first
        self.folders: dict[Path, bool] = {}
        self._set = PatternSet(patterns, first)  # path_matches for all of them, as one regex

    def _matches(self, parts: Sequence[str]) -> bool:
        return self._set.matches(parts)

    def folder(self, folder: Path) -> bool:
        if folder not in self.folders:
            parts = relative_parts(folder, self.root)
            above = folder.parent
            self.folders[folder] = (
                above != folder and len(parts) > self.first and self.folder(above)
            ) or self._matches(parts)
        return self.folders[folder]

    def file(self, file: Path) -> bool:
        return self.folder(file.parent) or self._matches(relative_parts(file, self.root))


def _git_listed_files(folder: Path) -> list[str] | None:
    """Files under `folder` that git does not ignore (tracked or untracked), or None without git.

    One `git ls-files` is far faster than walking and matching .gitignore ourselves.
    """
    import subprocess

    try:
        completed = subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=folder,
            capture_output=True,
            check=False,
        )
    except OSError:
        return None
    if completed.returncode != 0:
        return None
    names = completed.stdout.decode("utf-8", "surrogateescape").split("\0")
    return [name for name in names if name and not name.endswith("/")]


def _walk_without_git(folder: Path, excluded: _ExcludeCache) -> Iterator[Path]:
    from dtypelint.gitignore import GitIgnore  # a walk outside git only: not a one-file run's

    ignores = GitIgnore.above(folder)
    for current, dirnames, filenames in os.walk(folder):
        here = Path(current)
        ignores = ignores.with_file(here / ".gitignore")
        kept = []
        for name in sorted(dirnames):
            sub = here / name
            if not excluded.folder(sub) and not ignores.ignored(sub, is_dir=True):
                kept.append(name)
        dirnames[:] = kept
        for name in sorted(filenames):
            if name.endswith(PYTHON_SUFFIXES):
                file = here / name
                if (
                    not excluded.file(file)
                    and not ignores.ignored(file, is_dir=False)
                    and walked_file_wanted(file)  # no FIFO, device or socket
                ):
                    yield file


# ---------------------------------------------------------------------------------------------
# Files: check, fix or diff, one file at a time


@dataclass
class FileOutcome:
    """What happened to one file; plain data so it crosses process boundaries cheaply."""

    filename: str
    diagnostics: list[Diagnostic] = field(default_factory=list)  # what remains
    fixed: list[Diagnostic] = field(default_factory=list)
    # Source lines (row -> text) around the findings (`context_rows`), or all of a very large
    # file's (SourceLines): the text reporter shows the start rows, fingerprints (gate.py) read
    # the neighbourhood.
    lines: Mapping[int, str] = field(default_factory=dict)
    diff: str = ""
    # How many rows the source has (with `lines`: where context stops at the end of the file).
    line_count: int = 0
    # With fix=True and a source read from stdin: the (possibly fixed) text to print.
    fixed_source: str | None = None
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # Project summaries (analysis/summaries.py): what this file's functions tell callers in
    # other modules, and the project functions it calls.
    exports: dict[str, Summary] = field(default_factory=dict)
    imports: set[str] = field(default_factory=set)
    factory_imports: set[str] = field(default_factory=set)
    plain_imports: set[str] = field(default_factory=set)
    reexports: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RunOptions:
    fix: bool = False
    diff: bool = False
    unsafe: bool = False
    rules: tuple[type[Rule], ...] | None = None
    #: the project's function summaries by qualified name (second phase of lint_paths)
    project_summaries: Mapping[str, Summary] | None = None
    #: the content cache (cache.py): results reused while nothing they depend on changed
    cache: Cache | None = None
    #: the most processes (None: one per core); a large file's segments use them (segments.py)
    jobs: int | None = None


def process_decoded(
    decoded: DecodedSource | Diagnostic,
    filename: str,
    config: Config,
    options: RunOptions,
) -> FileOutcome:
    """Lint (and with fix/diff, fix) a decoded source; writes nothing."""
    if isinstance(decoded, Diagnostic):
        return _with_lines(FileOutcome(filename, [decoded]), None)
    # The same result, stored or computed (and then stored). Not for a source checked in
    # segments: its entry would hold every finding at once, which the segments avoid.
    if options.cache is not None and not is_large(decoded.text):
        return options.cache.outcome(decoded, filename, config, options, _process_decoded)
    return _process_decoded(decoded, filename, config, options)


def _process_decoded(
    decoded: DecodedSource, filename: str, config: Config, options: RunOptions
) -> FileOutcome:
    from dtypelint.analysis.summaries import ProjectContext, module_name_for

    rules = options.rules if options.rules is not None else default_rules()
    summaries = {} if options.project_summaries is None else options.project_summaries
    project = ProjectContext(module_name_for(filename), summaries)
    if is_large(decoded.text):
        return _process_large(decoded, filename, config, options, rules, project)
    try:
        diagnostics = lint_source(decoded.text, filename, config, rules, project)
    except RuleError as exc:
        return internal_error(filename, exc, config, options)
    outcome = FileOutcome(
        filename,
        diagnostics,
        exports=project.exports,
        imports=project.imports,
        factory_imports=project.factory_imports,
        plain_imports=project.plain_imports,
        reexports=project.reexports,
    )
    wants_fixes = options.fix or options.diff
    if wants_fixes and _has_applicable_fix(diagnostics, options.unsafe):
        try:
            result = fix_linted(
                decoded.text, diagnostics, filename, config, options.unsafe, rules, project
            )
        except RuleError as exc:
            return internal_error(
                filename, exc, config, options, "fixing", diagnostics, decoded.text
            )
        outcome.diagnostics = result.remaining
        outcome.fixed = result.applied
        outcome.warnings.extend(result.warnings)
        if options.diff:
            outcome.diff = unified_diff(decoded.text, result.source, filename)
        outcome.fixed_source = result.source
    elif options.fix:
        outcome.fixed_source = decoded.text
    return _with_lines(outcome, outcome.fixed_source or decoded.text)


def _process_large(
    decoded: DecodedSource,
    filename: str,
    config: Config,
    options: RunOptions,
    rules: RuleClasses,
    project: ProjectContext,
) -> FileOutcome:
    """`_process_decoded` for a source checked a segment at a time (segments.py)."""
    from dtypelint.segments import check_large

    wants_fixes = options.fix or options.diff
    try:
        result = check_large(
            decoded.text,
            filename,
            config,
            rules,
            project,
            wants_fixes,
            options.unsafe,
            options.jobs,
        )
    except RuleError as exc:
        return internal_error(filename, exc, config, options)
    outcome = FileOutcome(
        filename,
        result.diagnostics,
        fixed=result.applied,
        warnings=result.warnings,
        exports=project.exports,
        imports=project.imports,
        factory_imports=project.factory_imports,
        plain_imports=project.plain_imports,
        reexports=project.reexports,
    )
    if options.diff:
        outcome.diff = unified_diff(decoded.text, result.source, filename)
    if options.fix:
        outcome.fixed_source = result.source
    if outcome.diagnostics:  # the lines around them, read when a report shows them
        outcome.lines = SourceLines(result.source)
        outcome.line_count = len(outcome.lines)
    return outcome


def _has_applicable_fix(diagnostics: Iterable[Diagnostic], unsafe: bool) -> bool:
    return any(is_applicable(diagnostic, unsafe) for diagnostic in diagnostics)


def context_rows(diagnostic: Diagnostic) -> range:
    """A finding's rows and CONTEXT_ROWS on each side (rows past the file's end are skipped)."""
    first = max(1, diagnostic.location.row - CONTEXT_ROWS)
    return range(first, diagnostic.end_location.row + CONTEXT_ROWS + 1)


def _shown_rows(diagnostics: list[Diagnostic]) -> set[int]:
    """Each finding's `context_rows`, and the rows around its fix's edits (the text report
    previews the fix)."""
    shown: set[int] = set()
    for diagnostic in diagnostics:
        shown.update(context_rows(diagnostic))
        for edit in diagnostic.fix.edits if diagnostic.fix is not None else ():
            first = max(1, edit.location.row - CONTEXT_ROWS)
            shown.update(range(first, edit.end_location.row + CONTEXT_ROWS + 1))
    return shown


def _with_lines(outcome: FileOutcome, text: str | None) -> FileOutcome:
    if text is not None and outcome.diagnostics:
        starts = SourceText(text).line_starts
        rows = len(starts)
        outcome.line_count = rows
        # rows first: a finding's context and its fix's overlap (fetched once, not twice)
        ends = [*starts[1:], len(text)]
        outcome.lines = {
            row: text[starts[row - 1] : ends[row - 1]].rstrip("\r\n")
            for row in sorted(_shown_rows(outcome.diagnostics))
            if row <= rows
        }
    return outcome


@isolated  # any exception (a RecursionError included) is a DTL901 finding on this file alone
def process_file(path: Path, filename: str, config: Config, options: RunOptions) -> FileOutcome:
    """Read, lint, and with `fix` write the fixed file back (atomically, encoding kept)."""
    try:
        decoded = read_source(path, filename, config.max_file_size)
    except OSError as exc:
        return _unreadable(filename, exc, config, options)
    outcome = process_decoded(decoded, filename, config, options)
    if (
        options.fix
        and not options.diff
        and isinstance(decoded, DecodedSource)
        and outcome.fixed_source is not None
        and outcome.fixed_source != decoded.text
    ):
        try:
            write_atomic(
                path, outcome.fixed_source, decoded.encoding, decoded.bom, original=decoded.text
            )
        except FixWriteError as exc:
            # Nothing was written: what we fixed in memory is still there in the file.
            outcome.errors.append(f"{filename}: {exc}")
            reverted = process_decoded(decoded, filename, config, RunOptions(rules=options.rules))
            outcome.diagnostics, outcome.lines = reverted.diagnostics, reverted.lines
            outcome.line_count = reverted.line_count
            outcome.fixed = []
    outcome.fixed_source = None  # only stdin needs the text back; don't ship it between processes
    return outcome


def _unreadable(filename: str, exc: OSError, config: Config, options: RunOptions) -> FileOutcome:
    """A path that cannot be read is a DTL900 finding (ruff's E902), or an error when ignored."""
    reason = exc.strerror or str(exc)
    if exc.errno is not None:
        reason += f" (os error {exc.errno})"
    rules = options.rules if options.rules is not None else default_rules()
    if IO_ERROR_CODE not in config.codes_for_file(filename, rule_names(rules)):
        return FileOutcome(filename, errors=[f"{filename}: cannot read: {reason}"])
    start = Location(1, 1)
    finding = Diagnostic(IO_ERROR_CODE, IO_ERROR_NAME, reason, filename, start, start)
    return FileOutcome(filename, [finding])


def unified_diff(before: str, after: str, filename: str) -> str:
    from dtypelint.diffs import diff_lines  # linear on large files (difflib is not)

    if before == after:
        return ""
    lines = diff_lines(before.splitlines(keepends=True), after.splitlines(keepends=True), filename)
    out = []
    for line in lines:
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Many files


def lint_paths(
    files: Sequence[Path],
    config: Config,
    jobs: int | None = None,
    *,
    fix: bool = False,
    diff: bool = False,
    unsafe: bool | None = None,
    rules: RuleClasses | None = None,
    filenames: Mapping[Path, str] | None = None,
    cache: Cache | None = None,
    progress: Progress | None = None,
) -> list[FileOutcome]:
    """Process `files` (check, fix or diff), in parallel when there are enough of them.

    Outcomes come back in the order of `files`. `filenames` maps a path to the name shown for it
    (default: the path as given). `jobs` is the most processes to use (None: as many as there
    are cores, when the work pays for them). `cache` (made for these settings and rules) keeps
    results between runs; `progress` is told how many files are done.
    """
    from dtypelint.analysis.summaries import needed_again, with_reexports

    options = RunOptions(
        fix=fix,
        diff=diff,
        unsafe=config.unsafe_fixes if unsafe is None else unsafe,
        rules=tuple(rules) if rules is not None else None,
        cache=cache,
        jobs=jobs,
    )
    items = [(str(path), (filenames or {}).get(path, str(path))) for path in files]
    # Phase 1 checks every file and gathers the summaries its functions export. Phase 2 runs
    # again, with the project's summaries, the files that call an imported function whose
    # summary says something, and (with --fix) the files that have something to fix: fixes are
    # written only once every file has been seen, so one run fixes what one check reports.
    first = RunOptions(rules=options.rules, cache=cache, jobs=jobs) if options.fix else options
    one_pass = len(items) == 1 and options.fix
    if one_pass:
        # One file (pre-commit, an editor): no other file's summaries can change it, so the
        # first phase is the whole run, fixes included (a second would check it all again).
        first = options
    if progress is not None:
        progress.start(len(items))
    outcomes = _run(items, config, first, jobs, progress)
    table = {name: s for outcome in outcomes for name, s in outcome.exports.items()}
    table = with_reexports(
        table, {a: t for outcome in outcomes for a, t in outcome.reexports.items()}
    )
    again = [
        index
        for index, outcome in enumerate(outcomes)
        if not one_pass
        and (
            needed_again(table, outcome.imports, outcome.factory_imports, outcome.plain_imports)
            or (options.fix and _has_applicable_fix(outcome.diagnostics, options.unsafe))
        )
    ]
    if again:
        second = replace(options, project_summaries=table)
        if progress is not None:
            progress.start(len(again), "Checking files again with the project's summaries")
        redone = _run([items[index] for index in again], config, second, jobs, progress)
        for index, outcome in zip(again, redone):
            outcomes[index] = outcome
    return outcomes


def _run(
    items: Sequence[tuple[str, str]],
    config: Config,
    options: RunOptions,
    jobs: int | None,
    progress: Progress | None = None,
) -> list[FileOutcome]:
    # Cache hits first, then the rest here or in a pool when it pays (scheduling.py).
    from dtypelint.scheduling import run_items

    return run_items(items, config, options, jobs, progress)
