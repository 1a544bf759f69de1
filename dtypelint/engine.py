"""Finding files, reading them safely, running the rules, and doing it for many files at once.

Per file the source is parsed once with `ast`; the rules share one `ModuleAnalysis`. Nothing here
imports torch.
"""

from __future__ import annotations

import ast
import codecs
import io
import os
import re
import subprocess
import sys
import tokenize
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from dtypelint.config import Config, path_matches, relative_parts
from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.rules import IO_ERROR_CODE, IO_ERROR_NAME, SYNTAX_ERROR_CODE, SYNTAX_ERROR_NAME
from dtypelint.source import SourceText

if TYPE_CHECKING:
    from dtypelint.rules.base import Rule

RuleClasses = Sequence[type["Rule"]]


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
# Below this many files the pool's start-up costs more than it saves.
MIN_FILES_FOR_POOL = 16


class RuleError(RuntimeError):
    """A rule raised; carries which rule and which file so one line can tell the user."""


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
                if not excluded.file(file) and file.is_file():
                    yield file
        return
    yield from _walk_without_git(folder, excluded)


class _ExcludeCache:
    """Exclude tests, remembered per folder (most files share their folder with others)."""

    def __init__(self, patterns: Sequence[str], root: Path | None, first: int) -> None:
        self.patterns = patterns
        self.root = root
        self.first = first
        self.folders: dict[Path, bool] = {}

    def _matches(self, parts: Sequence[str]) -> bool:
        return any(path_matches(pattern, parts, self.first) for pattern in self.patterns)

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
                if not excluded.file(file) and not ignores.ignored(file, is_dir=False):
                    yield file


@dataclass(frozen=True)
class _IgnoreRule:
    base: Path  # the folder of the .gitignore that holds it
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool
    anchored: bool


@dataclass(frozen=True)
class GitIgnore:
    """The .gitignore patterns in force for one folder (used only outside git work trees)."""

    rules: tuple[_IgnoreRule, ...] = ()
    read: frozenset[Path] = frozenset()

    @classmethod
    def above(cls, folder: Path) -> GitIgnore:
        """Patterns from .gitignore files in the folders above `folder`, up to a `.git`."""
        folder = Path(os.path.abspath(folder))
        chain = []
        for parent in folder.parents:
            chain.append(parent)
            if (parent / ".git").exists():
                break
        else:
            chain = []
        result = cls()
        for parent in reversed(chain):
            result = result.with_file(parent / ".gitignore")
        return result

    def with_file(self, path: Path) -> GitIgnore:
        absolute = Path(os.path.abspath(path))
        if absolute in self.read or not absolute.is_file():
            return self
        added = tuple(_parse_gitignore(absolute))
        return GitIgnore(self.rules + added, self.read | {absolute})

    def ignored(self, path: Path, *, is_dir: bool) -> bool:
        absolute = Path(os.path.abspath(path))
        verdict = False
        for rule in self.rules:  # the last matching pattern decides, as in git
            if rule.dir_only and not is_dir:
                continue
            try:
                relative = absolute.relative_to(rule.base).as_posix()
            except ValueError:
                continue
            subject = relative if rule.anchored else absolute.name
            if rule.regex.fullmatch(subject):
                verdict = not rule.negated
        return verdict


def _parse_gitignore(path: Path) -> Iterator[_IgnoreRule]:
    from dtypelint.config import _glob_regex

    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.rstrip()
        if raw.endswith("\\ "):  # an escaped trailing space is kept
            line += " "
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        if negated or line.startswith("\\"):
            line = line[1:]
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        anchored = "/" in line
        line = line.lstrip("/")
        if line:
            yield _IgnoreRule(path.parent, _glob_regex(line), negated, dir_only, anchored)


# ---------------------------------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class DecodedSource:
    """A file's text exactly as stored (line endings kept) and how to write it back."""

    text: str
    encoding: str  # the codec to write with, e.g. "utf-8" or "iso-8859-1"
    bom: bool = False


def read_source(path: Path, filename: str | None = None) -> DecodedSource | Diagnostic:
    """Read and decode `path`; a file that cannot be decoded is returned as a DTL000 finding.

    Raises OSError when the file cannot be read at all.
    """
    return decode_source(Path(path).read_bytes(), str(path) if filename is None else filename)


def decode_source(data: bytes, filename: str) -> DecodedSource | Diagnostic:
    """Decode like Python does (BOM, PEP 263 coding cookie), without translating newlines."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "unknown encoding" in str(exc) or "encoding problem" in str(exc):
            return _syntax_error_at(filename, f"SyntaxError: {exc}", Location(1, 1), None)
        encoding = "utf-8"  # invalid utf-8 in the first lines: the decode below locates it
    bom = encoding == "utf-8-sig"
    codec = "utf-8" if bom else encoding
    body = data[len(codecs.BOM_UTF8) :] if bom else data
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as exc:
        before = SourceText(body[: exc.start].decode(codec, "replace"))
        location = before.location_at(len(before.text))
        return _syntax_error_at(filename, f"SyntaxError: (unicode error) {exc}", location, None)
    return DecodedSource(text, codec, bom)


def _syntax_error_at(
    filename: str, message: str, location: Location, end: Location | None
) -> Diagnostic:
    return Diagnostic(
        code=SYNTAX_ERROR_CODE,
        name=SYNTAX_ERROR_NAME,
        message=message,
        filename=filename,
        location=location,
        end_location=end if end is not None and end > location else location,
    )


def syntax_error_diagnostic(exc: SyntaxError, source: SourceText, filename: str) -> Diagnostic:
    """DTL000 at the parser's position (its offsets are 1-based characters for str input)."""
    rows = len(source.line_starts)
    if exc.lineno is None and "null bytes" in str(exc.msg):
        location = source.location_at(max(source.text.find("\0"), 0))
    else:
        row = min(max(exc.lineno or 1, 1), rows)
        column = min(max(exc.offset or 1, 1), len(source.line(row)) + 1)
        location = Location(row, column)
    end = None
    if exc.end_lineno and exc.end_offset and exc.end_lineno <= rows:
        end_column = min(exc.end_offset, len(source.line(exc.end_lineno)) + 1)
        end = Location(exc.end_lineno, end_column)
    message = f"{type(exc).__name__}: {exc.msg}"
    return _syntax_error_at(filename, message, location, end)


# ---------------------------------------------------------------------------------------------
# Suppression comments

#: A noqa directive, with or without codes (gate.py merges codes into one).
NOQA_DIRECTIVE = re.compile(
    r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_FILE_NOQA = re.compile(
    r"#\s*dtypelint\s*:\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?",
    re.IGNORECASE,
)
_CODE_SPLIT = re.compile(r"[\s,]+")
_LINE_END = re.compile(r"\r\n|\r|\n")


def _noqa_codes(match: re.Match[str]) -> frozenset[str] | None:
    codes = match.group("codes")
    return None if codes is None else frozenset(_CODE_SPLIT.split(codes.strip()))


def file_noqa(source: SourceText) -> frozenset[str] | None:
    """What `# dtypelint: noqa` in the file's first comment block silences.

    None: the whole file; else the codes named (`# dtypelint: noqa: DTL001`), often none.
    """
    silenced: frozenset[str] = frozenset()
    for line in _leading_lines(source.text):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        match = _FILE_NOQA.search(stripped)
        if match:
            codes = _noqa_codes(match)
            if codes is None:
                return None
            silenced |= codes
    return silenced


def _leading_lines(text: str) -> Iterator[str]:
    """Lines from the top, split lazily: only the header is ever looked at."""
    position = 0
    while position < len(text):
        match = _LINE_END.search(text, position)
        end = match.start() if match else len(text)
        yield text[position:end]
        position = match.end() if match else len(text)


def line_silences(line: str, code: str) -> bool:
    """Whether a `# noqa` comment on `line` silences `code` (codes compared exactly)."""
    if "#" not in line:
        return False
    for match in NOQA_DIRECTIVE.finditer(line):
        codes = _noqa_codes(match)
        if codes is None or code in codes:
            return True
    return False


def _drop_silenced(diagnostics: Iterable[Diagnostic], source: SourceText) -> list[Diagnostic]:
    return [
        diagnostic
        for diagnostic in diagnostics
        if not line_silences(source.line(diagnostic.location.row), diagnostic.code)
    ]


# ---------------------------------------------------------------------------------------------
# Linting one source


def default_rules() -> tuple[type[Rule], ...]:
    from dtypelint.rules import ALL_RULES

    return ALL_RULES


def _rule_names(rules: RuleClasses) -> dict[str, str]:
    return (
        {SYNTAX_ERROR_CODE: SYNTAX_ERROR_NAME}
        | {rule.code: rule.name for rule in rules}
        | {IO_ERROR_CODE: IO_ERROR_NAME}
    )


def parse_source(text: str, filename: str) -> ast.Module | SyntaxError:
    with warnings.catch_warnings():
        # Invalid escape sequences etc. are the user's business, not lint output on stderr.
        warnings.simplefilter("ignore")
        try:
            return ast.parse(text, filename=filename)
        except SyntaxError as exc:
            return exc
        except ValueError as exc:  # null bytes on some Python versions
            error = SyntaxError(str(exc))
            return error


def lint_source(
    source: str,
    filename: str = "<stdin>",
    config: Config | None = None,
    rules: RuleClasses | None = None,
) -> list[Diagnostic]:
    """Every finding in `source`, sorted by position then code; `# noqa` already applied."""
    config = config if config is not None else Config()
    rules = default_rules() if rules is None else rules
    text = SourceText(source)
    tree = parse_source(source, filename)
    if isinstance(tree, SyntaxError):
        diagnostic = syntax_error_diagnostic(tree, text, filename)
        selected = config.codes_for_file(filename, _rule_names(rules))
        return [diagnostic] if SYNTAX_ERROR_CODE in selected else []
    return run_rules(tree, text, filename, config, rules)


def run_rules(
    tree: ast.Module,
    source: SourceText,
    filename: str,
    config: Config,
    rules: RuleClasses,
) -> list[Diagnostic]:
    names = _rule_names(rules)
    codes = config.codes_for_file(filename, names)
    silenced = frozenset() if config.ignore_noqa else file_noqa(source)
    if silenced is None:
        return []
    active = [rule for rule in rules if rule.code in codes and rule.code not in silenced]
    if not active:
        return []
    from dtypelint.analysis import ModuleAnalysis

    module = ModuleAnalysis(tree, source, filename, config.camera_names)
    found: list[Diagnostic] = []
    for rule in active:
        try:
            found.extend(rule().check(module))
        except Exception as exc:  # one broken rule must not hide the others' findings silently
            raise RuleError(f"{filename}: internal error in {rule.code}: {exc!r}") from exc
    if not config.ignore_noqa:
        found = _drop_silenced(found, source)
    found = _without_unfixable(found, config.unfixable_codes(names))
    found.sort(key=Diagnostic.sort_key)
    return found


def _without_unfixable(found: list[Diagnostic], unfixable: frozenset[str]) -> list[Diagnostic]:
    """Drop the fixes of `unfixable` codes; the fix's message stays as the finding's help."""
    return [
        replace(d, fix=None, details={**d.details, "help": d.fix.message})
        if d.fix is not None and d.code in unfixable
        else d
        for d in found
    ]


# ---------------------------------------------------------------------------------------------
# Files: check, fix or diff, one file at a time


@dataclass
class FileOutcome:
    """What happened to one file; plain data so it crosses process boundaries cheaply."""

    filename: str
    diagnostics: list[Diagnostic] = field(default_factory=list)  # what remains
    fixed: list[Diagnostic] = field(default_factory=list)
    # Source lines (row -> text) around the findings (`context_rows`): the text reporter shows
    # the start rows, fingerprints (gate.py) read the neighbourhood.
    lines: dict[int, str] = field(default_factory=dict)
    diff: str = ""
    # How many rows the source has (with `lines`: where context stops at the end of the file).
    line_count: int = 0
    # With fix=True and a source read from stdin: the (possibly fixed) text to print.
    fixed_source: str | None = None
    warnings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RunOptions:
    fix: bool = False
    diff: bool = False
    unsafe: bool = False
    rules: tuple[type[Rule], ...] | None = None


def process_decoded(
    decoded: DecodedSource | Diagnostic,
    filename: str,
    config: Config,
    options: RunOptions,
) -> FileOutcome:
    """Lint (and with fix/diff, fix) a decoded source; writes nothing."""
    if isinstance(decoded, Diagnostic):
        return _with_lines(FileOutcome(filename, [decoded]), None)
    rules = options.rules if options.rules is not None else default_rules()
    try:
        diagnostics = lint_source(decoded.text, filename, config, rules)
    except RuleError as exc:
        return FileOutcome(filename, errors=[str(exc)])
    outcome = FileOutcome(filename, diagnostics)
    wants_fixes = options.fix or options.diff
    if wants_fixes and _has_applicable_fix(diagnostics, options.unsafe):
        from dtypelint.fixer import fix_linted

        try:
            result = fix_linted(decoded.text, diagnostics, filename, config, options.unsafe, rules)
        except RuleError as exc:
            return FileOutcome(filename, diagnostics, errors=[str(exc)])
        outcome.diagnostics = result.remaining
        outcome.fixed = result.applied
        outcome.warnings.extend(result.warnings)
        if options.diff:
            outcome.diff = unified_diff(decoded.text, result.source, filename)
        outcome.fixed_source = result.source
    elif options.fix:
        outcome.fixed_source = decoded.text
    return _with_lines(outcome, outcome.fixed_source or decoded.text)


def _has_applicable_fix(diagnostics: Iterable[Diagnostic], unsafe: bool) -> bool:
    from dtypelint.fixer import is_applicable

    return any(is_applicable(diagnostic, unsafe) for diagnostic in diagnostics)


def context_rows(diagnostic: Diagnostic) -> range:
    """A finding's rows and CONTEXT_ROWS on each side (rows past the file's end are skipped)."""
    first = max(1, diagnostic.location.row - CONTEXT_ROWS)
    return range(first, diagnostic.end_location.row + CONTEXT_ROWS + 1)


def _shown_rows(diagnostic: Diagnostic) -> Iterator[int]:
    """`context_rows`, and the rows around the fix's edits (the text report previews the fix)."""
    yield from context_rows(diagnostic)
    for edit in diagnostic.fix.edits if diagnostic.fix is not None else ():
        first = max(1, edit.location.row - CONTEXT_ROWS)
        yield from range(first, edit.end_location.row + CONTEXT_ROWS + 1)


def _with_lines(outcome: FileOutcome, text: str | None) -> FileOutcome:
    if text is not None and outcome.diagnostics:
        source = SourceText(text)
        rows = len(source.line_starts)
        outcome.line_count = rows
        outcome.lines = {
            row: source.line(row)
            for diagnostic in outcome.diagnostics
            for row in _shown_rows(diagnostic)
            if row <= rows
        }
    return outcome


def process_file(path: Path, filename: str, config: Config, options: RunOptions) -> FileOutcome:
    """Read, lint, and with `fix` write the fixed file back (atomically, encoding kept)."""
    try:
        decoded = read_source(path, filename)
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
        from dtypelint.fixer import FixWriteError, write_atomic

        try:
            write_atomic(path, outcome.fixed_source, decoded.encoding, decoded.bom)
        except FixWriteError as exc:
            # Nothing was written: what we fixed in memory is still there in the file.
            outcome.errors.append(f"{filename}: {exc}")
            reverted = process_decoded(decoded, filename, config, RunOptions(rules=options.rules))
            outcome.diagnostics, outcome.lines = reverted.diagnostics, reverted.lines
            outcome.fixed = []
    outcome.fixed_source = None  # only stdin needs the text back; don't ship it between processes
    return outcome


def _unreadable(filename: str, exc: OSError, config: Config, options: RunOptions) -> FileOutcome:
    """A path that cannot be read is a DTL900 finding (ruff's E902), or an error when ignored."""
    reason = exc.strerror or str(exc)
    if exc.errno is not None:
        reason += f" (os error {exc.errno})"
    rules = options.rules if options.rules is not None else default_rules()
    if IO_ERROR_CODE not in config.codes_for_file(filename, _rule_names(rules)):
        return FileOutcome(filename, errors=[f"{filename}: cannot read: {reason}"])
    start = Location(1, 1)
    finding = Diagnostic(IO_ERROR_CODE, IO_ERROR_NAME, reason, filename, start, start)
    return FileOutcome(filename, [finding])


def unified_diff(before: str, after: str, filename: str) -> str:
    import difflib

    if before == after:
        return ""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=filename,
        tofile=filename,
    )
    out = []
    for line in lines:
        out.append(line)
        if not line.endswith(("\n", "\r")):
            out.append("\n\\ No newline at end of file\n")
    return "".join(out)


# ---------------------------------------------------------------------------------------------
# Many files

_worker_state: tuple[Config, RunOptions] | None = None


def _init_worker(config: Config, options: RunOptions) -> None:
    global _worker_state
    _worker_state = (config, options)


def _work(item: tuple[str, str]) -> FileOutcome:
    assert _worker_state is not None
    path, filename = item
    config, options = _worker_state
    return process_file(Path(path), filename, config, options)


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


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
) -> list[FileOutcome]:
    """Process `files` (check, fix or diff), in parallel when there are enough of them.

    Outcomes come back in the order of `files`. `filenames` maps a path to the name shown for it
    (default: the path as given).
    """
    options = RunOptions(
        fix=fix,
        diff=diff,
        unsafe=config.unsafe_fixes if unsafe is None else unsafe,
        rules=tuple(rules) if rules is not None else None,
    )
    items = [(str(path), (filenames or {}).get(path, str(path))) for path in files]
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if jobs == 1 or len(items) < MIN_FILES_FOR_POOL:
        return [process_file(Path(path), name, config, options) for path, name in items]
    chunksize = max(1, len(items) // (jobs * 8))
    with ProcessPoolExecutor(
        max_workers=min(jobs, len(items)),
        mp_context=_pool_context(),
        initializer=_init_worker,
        initargs=(config, options),
    ) as pool:
        return list(pool.map(_work, items, chunksize=chunksize))


def _pool_context():  # type: ignore[no-untyped-def]
    import multiprocessing

    # fork is much cheaper to start than spawn; the linter runs no threads that fork could break.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()
