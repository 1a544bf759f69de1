"""Adopting dtypelint in an existing code base: fingerprints, baselines, `--since` and `--add-noqa`.

A finding's fingerprint is built from what the code says, never from where it is: the rule's
code, the file, the flagged text and the nearest code lines around it. Edits elsewhere in the file
shift line numbers but leave fingerprints alone, so a baseline keeps hiding old findings while a
new hazard (new text, or one more copy of old text) is reported. SARIF's `partialFingerprints`
use the same function.

Every bad input raises GateError with a one-line message (the CLI exits 2 with it).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import subprocess
import tempfile
import tokenize
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.engine import CONTEXT_ROWS, FileOutcome
from dtypelint.linter import NOQA_DIRECTIVE, DecodedSource, read_source
from dtypelint.rules import SYNTAX_ERROR_CODE
from dtypelint.source import SourceText

#: A finding with the source lines around it (FileOutcome.lines), as fingerprints need them.
Finding = tuple[Mapping[int, str], Diagnostic]

#: The key of our fingerprint in SARIF `partialFingerprints`; bump the version if it changes.
FINGERPRINT_KEY = "dtypelint/v1"
BASELINE_VERSION = 1
#: How far above and below a finding to look for its neighbouring code lines: as far as the
#: engine keeps lines around each finding.
NEIGHBOUR_ROWS = CONTEXT_ROWS


class GateError(Exception):
    """Bad input to a gate option (baseline, --since, --add-noqa); the message is one line."""


# ---------------------------------------------------------------------------------------------
# Fingerprints


def _normalize(line: str) -> str:
    # Without noqa directives: adding one for another finding on the line changes nothing here.
    return " ".join(NOQA_DIRECTIVE.sub("", line).split())


def _is_code(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def _neighbour(lines: Mapping[int, str], rows: Iterable[int]) -> str:
    """The first code line among `rows` (blank and comment-only lines are skipped)."""
    return next((lines[row] for row in rows if _is_code(lines.get(row, ""))), "")


def _flagged_text(diagnostic: Diagnostic, lines: Mapping[int, str]) -> str:
    start, end = diagnostic.location, diagnostic.end_location
    if start.row == end.row:
        return lines.get(start.row, "")[start.column - 1 : end.column - 1]
    middle = [lines.get(row, "") for row in range(start.row + 1, end.row)]
    first = lines.get(start.row, "")[start.column - 1 :]
    return "\n".join([first, *middle, lines.get(end.row, "")[: end.column - 1]])


def fingerprint(diagnostic: Diagnostic, lines: Mapping[int, str], path: str) -> str:
    """A hash of the code, `path`, the flagged text and its neighbourhood; no line numbers.

    `lines` maps rows to source lines and must hold `engine.context_rows(diagnostic)` (the engine
    keeps them in FileOutcome.lines). Whitespace is normalized, so re-indenting is not a change.
    """
    start, end = diagnostic.location, diagnostic.end_location
    own_lines = [lines.get(row, "") for row in range(start.row, end.row + 1)]
    before = _neighbour(lines, range(start.row - 1, start.row - NEIGHBOUR_ROWS - 1, -1))
    after = _neighbour(lines, range(end.row + 1, end.row + NEIGHBOUR_ROWS + 1))
    parts = [
        diagnostic.code,
        path,
        _normalize(_flagged_text(diagnostic, lines)),
        *(_normalize(line) for line in own_lines),
        _normalize(before),
        _normalize(after),
    ]
    data = "\0".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]


def relative_path(filename: str, base: Path) -> str:
    """`filename` relative to `base`, with forward slashes (`../` when outside it)."""
    absolute = os.path.abspath(filename)
    try:
        relative = os.path.relpath(absolute, os.path.abspath(base))
    except ValueError:  # another drive (Windows): no relative path exists
        return Path(absolute).as_posix()
    return Path(relative).as_posix()


# ---------------------------------------------------------------------------------------------
# Baselines
#
# A JSON file: {"version": 1, "entries": [{code, file, fingerprint, count}, ...]}. Files are
# named relative to the baseline's own folder, so the baseline works from any working folder.


@dataclass(frozen=True)
class Baseline:
    path: Path
    # (file, code, fingerprint) -> how many such findings the baseline accepts
    counts: Counter[tuple[str, str, str]] = field(default_factory=Counter)

    @property
    def base(self) -> Path:
        return self.path.parent


def _baseline_key(finding: Finding, base: Path) -> tuple[str, str, str]:
    lines, diagnostic = finding
    file = relative_path(diagnostic.filename, base)
    return (file, diagnostic.code, fingerprint(diagnostic, lines, file))


def baseline_document(findings: Iterable[Finding], base: Path) -> dict[str, Any]:
    """The baseline's JSON for `findings`, entries sorted by file, code and fingerprint."""
    counts = Counter(_baseline_key(finding, base) for finding in findings)
    entries = [
        {"code": code, "file": file, "fingerprint": hashed, "count": count}
        for (file, code, hashed), count in sorted(counts.items())
    ]
    return {"version": BASELINE_VERSION, "tool": "dtypelint", "entries": entries}


def write_baseline(path: Path, findings: Iterable[Finding]) -> int:
    """Write the baseline for `findings` to `path`; returns how many findings it holds."""
    document = baseline_document(findings, Path(path).parent)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    try:
        # A temporary file then a rename: an interrupted run never leaves half a baseline.
        handle, temporary = tempfile.mkstemp(
            dir=Path(path).parent, prefix=".dtl-", suffix=".dtypelint-tmp"
        )
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.chmod(temporary, 0o644)  # mkstemp makes it private; a baseline is shared
            os.replace(temporary, path)
        except BaseException:  # an interrupt too: never leave the temporary file behind
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError as exc:
        raise GateError(f"baseline {path}: cannot write: {exc.strerror or exc}") from None
    return sum(entry["count"] for entry in document["entries"])


def load_baseline(path: Path) -> Baseline:
    where = f"baseline {path}"
    from dtypelint.files import read_bytes

    try:
        text = read_bytes(Path(path), None).decode("utf-8")  # never waits on a FIFO
    except OSError as exc:
        raise GateError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise GateError(f"{where}: not a dtypelint baseline (not UTF-8 text)") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GateError(f"{where}: not a dtypelint baseline (invalid JSON: {exc})") from None
    if not isinstance(document, dict) or "entries" not in document:
        raise GateError(f"{where}: not a dtypelint baseline (no `entries`)")
    if document.get("version") != BASELINE_VERSION:
        raise GateError(
            f"{where}: unsupported baseline version {document.get('version')!r} "
            f"(expected {BASELINE_VERSION}); write it again with --write-baseline"
        )
    counts: Counter[tuple[str, str, str]] = Counter()
    entries = document["entries"]
    if not isinstance(entries, list):
        raise GateError(f"{where}: not a dtypelint baseline (`entries` is not a list)")
    for index, entry in enumerate(entries):
        counts[_entry_key(entry, f"{where}: entry {index}")] += entry["count"]
    return Baseline(Path(path), counts)


def _entry_key(entry: object, where: str) -> tuple[str, str, str]:
    if not isinstance(entry, dict):
        raise GateError(f"{where} is not an object")
    for key in ("code", "file", "fingerprint"):
        if not isinstance(entry.get(key), str):
            raise GateError(f"{where}: `{key}` must be a string")
    count = entry.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise GateError(f"{where}: `count` must be a positive integer")
    return (entry["file"], entry["code"], entry["fingerprint"])


def hide_baselined(outcomes: Sequence[FileOutcome], baseline: Baseline) -> int:
    """Drop the findings the baseline accounts for; returns how many were hidden.

    Each match spends one of the baseline's counts: with more copies of a fingerprint than the
    baseline holds, the later ones are reported.
    """
    budget = Counter(baseline.counts)
    hidden = 0
    for outcome in outcomes:
        kept = []
        for diagnostic in outcome.diagnostics:
            key = _baseline_key((outcome.lines, diagnostic), baseline.base)
            if budget[key] > 0:
                budget[key] -= 1
                hidden += 1
            else:
                kept.append(diagnostic)
        outcome.diagnostics = kept
    return hidden


# ---------------------------------------------------------------------------------------------
# --since REF: only findings on lines changed since a git revision

_HUNK = re.compile(rb"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_GIT_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


@dataclass(frozen=True)
class ChangedLines:
    """Rows added or changed since the revision, per real path; None: the whole file is new."""

    files: Mapping[str, frozenset[int] | None]

    def touches(self, diagnostic: Diagnostic) -> bool:
        key = os.path.realpath(diagnostic.filename)
        if key not in self.files:
            return False
        rows = self.files[key]
        if rows is None:
            return True
        span = range(diagnostic.location.row, diagnostic.end_location.row + 1)
        return any(row in rows for row in span)


def _git(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise GateError(f"--since needs git: {exc.strerror or exc}") from None


def _git_error(completed: subprocess.CompletedProcess[bytes]) -> str:
    lines = completed.stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[0].removeprefix("fatal: ") if lines else f"exit status {completed.returncode}"


def changed_lines(ref: str, paths: Sequence[str], cwd: Path | None = None) -> ChangedLines:
    """What changed in `paths` between `ref` and the working tree; untracked files count whole."""
    folder = Path.cwd() if cwd is None else Path(cwd)
    top = _git(["rev-parse", "--show-toplevel"], folder)
    if top.returncode != 0:
        raise GateError(f"--since needs a git repository: {folder} is not inside one")
    root = Path(top.stdout.decode("utf-8", "surrogateescape").strip())
    unknown = GateError(f"--since: unknown git revision `{ref}`")
    if ref.startswith("-"):  # git would read it as an option
        raise unknown
    verified = _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], folder)
    if verified.returncode != 0 or not verified.stdout.strip():
        raise unknown
    commit = verified.stdout.decode("ascii").strip()
    pathspecs = ["--", *(paths or ["."])]
    diff = _git(
        [
            "-c",
            "core.quotepath=off",
            "diff",
            "--unified=0",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            commit,
            *pathspecs,
        ],
        folder,
    )
    if diff.returncode != 0:
        raise GateError(f"--since: git diff failed: {_git_error(diff)}")
    files: dict[str, frozenset[int] | None] = {
        os.path.realpath(root / name): rows for name, rows in parse_diff(diff.stdout).items()
    }
    untracked = _git(
        ["ls-files", "--others", "--exclude-standard", "--full-name", "-z", *pathspecs], folder
    )
    if untracked.returncode != 0:
        raise GateError(f"--since: git ls-files failed: {_git_error(untracked)}")
    for name in untracked.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if name:
            files[os.path.realpath(root / name)] = None
    return ChangedLines(files)


def keep_changed(outcomes: Sequence[FileOutcome], changed: ChangedLines) -> int:
    """Drop the findings on lines that did not change; returns how many were dropped."""
    dropped = 0
    for outcome in outcomes:
        kept = [diagnostic for diagnostic in outcome.diagnostics if changed.touches(diagnostic)]
        dropped += len(outcome.diagnostics) - len(kept)
        outcome.diagnostics = kept
    return dropped


def parse_diff(output: bytes) -> dict[str, frozenset[int]]:
    """Added rows per file (paths relative to the repository) from `git diff --unified=0`."""
    files: dict[str, set[int]] = {}
    current: set[int] | None = None
    for line in output.split(b"\n"):
        if line.startswith(b"+++ "):
            name = _unquote(line[4:].decode("utf-8", "surrogateescape"))
            current = files.setdefault(name[2:], set()) if name.startswith("b/") else None
        elif current is not None and (match := _HUNK.match(line)):
            first = int(match.group(1))
            count = int(match.group(2)) if match.group(2) is not None else 1
            current.update(range(first, first + count))  # count 0: lines were only removed
    return {name: frozenset(rows) for name, rows in files.items()}


def _unquote(name: str) -> str:
    """Undo git's C-style quoting of unusual file names (`"b/tab\\there"`)."""
    if not (len(name) >= 2 and name.startswith('"') and name.endswith('"')):
        return name
    body, out, index = name[1:-1], bytearray(), 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            escaped = body[index + 1]
            if escaped in "01234567":
                out.append(int(body[index + 1 : index + 4], 8))
                index += 4
                continue
            out.append(_GIT_ESCAPES.get(escaped, ord(escaped)))
            index += 2
            continue
        out.extend(char.encode("utf-8", "surrogateescape"))
        index += 1
    return out.decode("utf-8", "surrogateescape")


# ---------------------------------------------------------------------------------------------
# --add-noqa: silence every current finding with a noqa comment naming its code


@dataclass
class NoqaResult:
    text: str
    added: int = 0  # lines that got (or had merged into) a directive
    warnings: list[str] = field(default_factory=list)


def _comment_places(text: str) -> tuple[set[int], dict[int, tuple[int, str]]]:
    """Rows that end outside a string or continuation, and each row's comment (column, text).

    A comment can only go at the end of such a row: inside a multi-line string or after a
    backslash it would change the code.
    """
    rows: set[int] = set()
    comments: dict[int, tuple[int, str]] = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.NEWLINE, tokenize.NL):
            rows.add(token.start[0])
        elif token.type == tokenize.COMMENT:
            comments[token.start[0]] = (token.start[1], token.string)
    return rows, comments


def add_noqa_to_text(text: str, diagnostics: Sequence[Diagnostic], filename: str) -> NoqaResult:
    """`text` with `# noqa: CODE` added on each finding's first line, merged with any there."""
    wanted: dict[int, list[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic.code == SYNTAX_ERROR_CODE:
            continue  # the file does not parse: a comment cannot help
        codes = wanted.setdefault(diagnostic.location.row, [])
        if diagnostic.code not in codes:
            codes.append(diagnostic.code)
    result = NoqaResult(text)
    if not wanted:
        return result
    try:
        commentable, comments = _comment_places(text)
    except (tokenize.TokenError, SyntaxError) as exc:
        result.warnings.append(f"{filename}: cannot add noqa comments: {exc}")
        return result
    source = SourceText(text)
    edits: list[tuple[int, int, str]] = []
    for row, codes in sorted(wanted.items()):
        if row not in commentable:
            result.warnings.append(
                f"{filename}:{row}: cannot add `# noqa: {', '.join(codes)}`: the line ends "
                "inside a string or continues on the next one"
            )
            continue
        edits.append(_noqa_edit(source, row, codes, comments.get(row)))
        result.added += 1
    pieces, position = [], 0
    for start, end, content in sorted(edits):
        pieces += [text[position:start], content]
        position = end
    result.text = "".join([*pieces, text[position:]])
    return result


def _noqa_edit(
    source: SourceText, row: int, codes: list[str], comment: tuple[int, str] | None
) -> tuple[int, int, str]:
    """The edit (start, end offsets and new text) that puts `codes` into the row's noqa."""
    line_start = source.offset(Location(row, 1))
    line = source.line(row)
    if comment is not None:
        column, comment_text = comment
        match = next(
            (m for m in NOQA_DIRECTIVE.finditer(comment_text) if m.group("codes") is not None), None
        )
        if match is not None:
            present = re.split(r"[\s,]+", match.group("codes").strip())
            merged = present + [code for code in codes if code not in present]
            start = line_start + column + match.start()
            return start, line_start + column + match.end(), f"# noqa: {', '.join(merged)}"
    kept = line.rstrip()
    directive = f"  # noqa: {', '.join(codes)}"
    return line_start + len(kept), line_start + len(line), directive


def add_noqa(path: Path, diagnostics: Sequence[Diagnostic], filename: str) -> NoqaResult:
    """Add the directives to the file at `path` and write it back atomically.

    The file is left alone when the result would not parse. Raises GateError when it cannot be
    read or written.
    """
    from dtypelint.fixer import FixWriteError, parse_error, write_atomic

    try:
        decoded = read_source(path, filename)
    except OSError as exc:
        raise GateError(f"{filename}: cannot read: {exc.strerror or exc}") from None
    if not isinstance(decoded, DecodedSource):
        return NoqaResult("")  # undecodable: reported as DTL000, nothing to annotate
    result = add_noqa_to_text(decoded.text, diagnostics, filename)
    if result.text == decoded.text:
        return result
    error = parse_error(result.text)
    if error is not None:  # never expected; refuse rather than break the file
        return NoqaResult(decoded.text, 0, [f"{filename}: noqa comments not added: {error.msg}"])
    try:
        write_atomic(path, result.text, decoded.encoding, decoded.bom, original=decoded.text)
    except FixWriteError as exc:
        raise GateError(f"{filename}: {str(exc).replace('fixes', 'noqa comments')}") from None
    return result
