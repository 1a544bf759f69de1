"""Linting one source text: decode, parse, run the rules, apply `# noqa`.

The layer below files (engine.py) and fixes (fixer.py): both import it, it imports neither.
"""

from __future__ import annotations

import ast
import codecs
import contextlib
import gc
import io
import re
import tokenize
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from dtypelint.config import Config, project_parts
from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.files import DEFAULT_MAX_FILE_SIZE, read_bytes
from dtypelint.rules import (
    INTERNAL_ERROR_CODE,
    INTERNAL_ERROR_NAME,
    IO_ERROR_CODE,
    IO_ERROR_NAME,
    NEWER_SYNTAX_CODE,
    NEWER_SYNTAX_NAME,
    SYNTAX_ERROR_CODE,
    SYNTAX_ERROR_NAME,
)
from dtypelint.source import LINE_END, SourceText

if TYPE_CHECKING:
    from dtypelint.analysis.summaries import ProjectContext
    from dtypelint.rules.base import Rule

RuleClasses = Sequence[type["Rule"]]


class RuleError(RuntimeError):
    """A rule raised; carries which rule and which file so one line can tell the user."""


# ---------------------------------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class DecodedSource:
    """A file's text exactly as stored (line endings kept) and how to write it back."""

    text: str
    encoding: str  # the codec to write with, e.g. "utf-8" or "iso-8859-1"
    bom: bool = False


def read_source(
    path: Path, filename: str | None = None, max_size: int | None = DEFAULT_MAX_FILE_SIZE
) -> DecodedSource | Diagnostic:
    """Read and decode `path`; a file that cannot be decoded is returned as a DTL000 finding.

    Raises OSError when the file cannot be read at all, and `files.SkippedFile` (an OSError) for
    what is not a regular file or is larger than `max_size` bytes.
    """
    data = read_bytes(Path(path), max_size)
    return decode_source(data, str(path) if filename is None else filename)


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
        match = LINE_END.search(text, position)
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


def rule_names(rules: RuleClasses) -> dict[str, str]:
    return (
        {SYNTAX_ERROR_CODE: SYNTAX_ERROR_NAME}
        | {rule.code: rule.name for rule in rules}
        | {IO_ERROR_CODE: IO_ERROR_NAME}
        | {INTERNAL_ERROR_CODE: INTERNAL_ERROR_NAME}
        | {NEWER_SYNTAX_CODE: NEWER_SYNTAX_NAME}
    )


def parse_source(text: str, filename: str) -> ast.Module | SyntaxError:
    from dtypelint.isolation import parse_depth

    with warnings.catch_warnings(), parse_depth():
        # Invalid escape sequences etc. are the user's business, not lint output on stderr.
        warnings.simplefilter("ignore")
        try:
            return ast.parse(text, filename=filename)
        except SyntaxError as exc:
            return exc
        except ValueError as exc:  # null bytes on some Python versions
            error = SyntaxError(str(exc))
            return error
        except (RecursionError, MemoryError) as exc:  # nested deeper than the parser goes
            return too_deep_error(exc)


def too_deep_error(exc: BaseException) -> SyntaxError:
    """The parser's own RecursionError or MemoryError, as the DTL000 it is for Python too."""
    detail = str(exc) or "out of memory"
    return SyntaxError(f"too deeply nested to parse ({type(exc).__name__}: {detail})")


@contextlib.contextmanager
def young_collections() -> Iterator[None]:
    """No automatic collection while a source is analysed; one of the young generation after.

    An analysis allocates in bursts while the file's tree is alive: Python's automatic
    collections traverse that tree again and again (31% of the time on a 600 KB module of
    3,000 functions, 40% on a 2 MB one). A collection of the young generation at the end frees
    the analysis' cycles once. Nested uses (a large file's segments) collect once per segment.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


@young_collections()
def lint_source(
    source: str,
    filename: str = "<stdin>",
    config: Config | None = None,
    rules: RuleClasses | None = None,
    project: ProjectContext | None = None,
    *,
    tree: ast.Module | None = None,
) -> list[Diagnostic]:
    """Every finding in `source`, sorted by position then code; `# noqa` already applied.

    `project` carries the project's function summaries in and this file's exports out. `tree`:
    `source` already parsed (the fixer parses each fixed text once, to check it and to lint it).
    """
    config = config if config is not None else Config()
    rules = default_rules() if rules is None else rules
    text = SourceText(source)
    if tree is None:
        tree = parse_source(source, filename)
    if isinstance(tree, SyntaxError):
        from dtypelint.newer_syntax import newer_syntax_diagnostic

        diagnostic = newer_syntax_diagnostic(tree, text, filename) or syntax_error_diagnostic(
            tree, text, filename
        )
        selected = config.codes_for_file(filename, rule_names(rules))
        return [diagnostic] if diagnostic.code in selected else []
    return run_rules(tree, text, filename, config, rules, project)


def run_rules(
    tree: ast.Module,
    source: SourceText,
    filename: str,
    config: Config,
    rules: RuleClasses,
    project: ProjectContext | None = None,
) -> list[Diagnostic]:
    names = rule_names(rules)
    codes = config.codes_for_file(filename, names)
    silenced = frozenset() if config.ignore_noqa else file_noqa(source)
    if silenced is None:
        return []
    active = [rule for rule in rules if rule.code in codes and rule.code not in silenced]
    if not active:
        return []
    from dtypelint.analysis import ModuleAnalysis

    try:
        module = ModuleAnalysis(
            tree,
            source,
            filename,
            config.camera_names,
            config.scope,
            project,
            scope_path=_scope_path(filename, config),
        )
    except (Exception, RecursionError) as exc:  # one file's analysis must not sink the run
        raise RuleError(f"{filename}: internal error in the analysis: {exc!r}") from exc
    found: list[Diagnostic] = []
    try:
        for rule in active:
            try:
                found.extend(rule().check(module))
            except Exception as exc:  # one broken rule must not hide the others' findings
                raise RuleError(f"{filename}: internal error in {rule.code}: {exc!r}") from exc
    finally:
        module.release()
    if not config.ignore_noqa:
        found = _drop_silenced(found, source)
    found = _without_unfixable(found, config.unfixable_codes(names))
    found.sort(key=Diagnostic.sort_key)
    return found


def _scope_path(filename: str, config: Config) -> str:
    """The path the scope rules read folders from: the file's, within its project."""
    return "/".join(project_parts(filename, config.project_root))


def _without_unfixable(found: list[Diagnostic], unfixable: frozenset[str]) -> list[Diagnostic]:
    """Drop the fixes of `unfixable` codes; the fix's message stays as the finding's help."""
    return [
        replace(d, fix=None, details={**d.details, "help": d.fix.message})
        if d.fix is not None and d.code in unfixable
        else d
        for d in found
    ]
