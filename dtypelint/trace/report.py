"""The `dtypelint trace` report: the sites the traced process recorded, each with the static
finding `dtypelint check` makes on that line, in text, JSON or SARIF. No torch here.

A finding is "at" a site when it lies in the statement the site's line belongs to (a call that
spans lines is recorded on its first line, while the finding may point at an argument below).
Findings elsewhere in the same function are listed as related: the root cause of a failure is
often a few lines up (a float32 `torch.ones` two lines before the matmul that raises).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shlex
import signal
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dtypelint import __version__, lint_source
from dtypelint.analysis.syntax import is_self_attribute
from dtypelint.config import Config, ConfigError, load_config
from dtypelint.diagnostics import Diagnostic
from dtypelint.engine import DecodedSource, read_source

OUTPUT_FORMATS = ("text", "json", "sarif")
RULE_ID = "mixed-dtype-call"
PROJECT_URL = "https://github.com/dtypelint/dtypelint"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
NOT_COVERED = (
    "Python processes other than the first of the command to import torch (subprocesses, "
    "DataLoader workers)",
    "threads other than the one that imported torch",
    "code inside torch.compile graphs",
)


@dataclass(frozen=True)
class Finding:
    code: str
    name: str
    message: str
    row: int
    column: int


@dataclass
class Site:
    file: str  # as shown: relative to the base folder when under it
    path: str  # absolute
    line: int
    function: str
    op: str
    dtypes: list[str]
    result: str | None
    raised: bool
    count: int
    autocast: str | None
    findings: list[Finding] = field(default_factory=list)
    related: list[Finding] = field(default_factory=list)

    @property
    def found_by_check(self) -> bool:
        return bool(self.findings)


@dataclass
class TraceReport:
    command: list[str]
    returncode: int | None  # None: the command could not be run to the end
    traced: dict[str, Any] | None  # pid, argv, torch, complete of the traced process
    sites: list[Site]
    unattributed: int = 0

    @property
    def exit_code(self) -> int:
        """1 when any site was recorded, else the command's own exit code (128 + N for a
        signal, as a shell reports it)."""
        if self.sites:
            return 1
        if self.returncode is None:
            return 2
        return 128 - self.returncode if self.returncode < 0 else self.returncode


# --- building ------------------------------------------------------------------------------------


def shown_path(path: str, base: Path) -> str:
    try:
        return Path(path).resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path


def build_report(
    records: dict[str, Any] | None,
    command: Sequence[str],
    returncode: int | None,
    base: Path,
) -> TraceReport:
    """The report for `records` (the traced process's snapshot; None when nothing imported
    torch), with static findings linked, sites sorted by file and line."""
    sites = []
    for record in (records or {}).get("sites", []):
        frame = record.get("frame")
        if not frame:
            continue
        path = str(frame["file"])
        sites.append(
            Site(
                file=shown_path(path, base),
                path=path,
                line=int(frame["line"]),
                function=str(frame.get("function", "?")),
                op=record["op"],
                dtypes=list(record["dtypes"]),
                result=record.get("result"),
                raised=bool(record.get("raised")),
                count=int(record.get("count", 1)),
                autocast=record.get("autocast"),
            )
        )
    sites.sort(key=lambda s: (s.file, s.line, s.op, s.dtypes))
    StaticIndex(base).link(sites)
    traced = None
    if records is not None:
        traced = {key: records.get(key) for key in ("pid", "argv", "torch", "complete")}
    unattributed = int((records or {}).get("unattributed", 0))
    return TraceReport(list(command), returncode, traced, sites, unattributed)


@dataclass
class _FileIndex:
    diagnostics: list[Diagnostic]
    statements: list[ast.stmt]
    scopes: list[ast.AST]  # functions and classes


class StaticIndex:
    """`dtypelint check`'s findings for the files that have sites (public API, in process).

    A finding belongs to a site when it lies in the site's statement, or in a statement that
    binds a value the site's statement reads: `ones = torch.ones(...)` (DTL001 there) for the
    `torch.cat([h, ones])` on the next line, `self.scale = torch.ones(...)` in `__init__` (DTL005)
    for `x * self.scale` in `forward`. Other findings of the enclosing function are related.
    """

    def __init__(self, base: Path) -> None:
        self.base = base
        self.files: dict[str, _FileIndex | None] = {}
        self.configs: dict[Path, Config] = {}

    def link(self, sites: list[Site]) -> None:
        for site in sites:
            index = self._index(site.path, site.file)
            if index is not None:
                site.findings, site.related = self._match(index, site.line)

    def _match(self, index: _FileIndex, line: int) -> tuple[list[Finding], list[Finding]]:
        statement = _innermost(index.statements, line)
        function = _innermost([s for s in index.scopes if not isinstance(s, ast.ClassDef)], line)
        cls = _innermost([s for s in index.scopes if isinstance(s, ast.ClassDef)], line)
        reads = _reads(statement) if statement is not None else set()
        at, related = [], []
        for diagnostic in index.diagnostics:
            row = diagnostic.location.row
            if (statement is not None and _contains(statement, row)) or row == line:
                at.append(_finding(diagnostic))
                continue
            source = _innermost(index.statements, row)
            binds = _binds(source) if source is not None else set()
            scope = cls if any(kind == "attr" for kind, _ in binds & reads) else function
            if binds & reads and scope is not None and _contains(scope, row):
                at.append(_finding(diagnostic))
            elif function is not None and _contains(function, row):
                related.append(_finding(diagnostic))
        return at, related

    def _index(self, path: str, shown: str) -> _FileIndex | None:
        if path not in self.files:
            self.files[path] = self._build(Path(path), shown)
        return self.files[path]

    def _build(self, path: Path, shown: str) -> _FileIndex | None:
        try:
            decoded = read_source(path, shown)
        except OSError:
            return None
        if not isinstance(decoded, DecodedSource):
            return None
        try:
            module = ast.parse(decoded.text)
        except SyntaxError:
            return None
        diagnostics = [
            d for d in lint_source(decoded.text, shown, self._config(path)) if d.code != "DTL000"
        ]
        statements = [node for node in ast.walk(module) if isinstance(node, ast.stmt)]
        scopes = [
            node
            for node in statements
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        ]
        return _FileIndex(diagnostics, statements, scopes)

    def _config(self, path: Path) -> Config:
        folder = path.parent
        if folder not in self.configs:
            try:
                self.configs[folder] = load_config(None, folder)
            except ConfigError:
                self.configs[folder] = Config()
        return self.configs[folder]


def _contains(node: ast.AST, line: int) -> bool:
    return node.lineno <= line <= (node.end_lineno or node.lineno)  # type: ignore[attr-defined]


def _innermost(nodes: Sequence[ast.AST], line: int) -> ast.AST | None:
    """The smallest node spanning `line`: a simple statement rather than its `with` block."""
    containing = [node for node in nodes if _contains(node, line)]
    return min(
        containing,
        key=lambda n: (n.end_lineno or n.lineno) - n.lineno,  # type: ignore[attr-defined]
        default=None,
    )


Binding = tuple[str, str]  # ("name", "ones") or ("attr", "scale") for self.scale


def _binds(statement: ast.AST) -> set[Binding]:
    targets: list[ast.AST] = []
    if isinstance(statement, ast.Assign):
        targets = list(statement.targets)
    elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
        targets = [statement.target]
    found: set[Binding] = set()
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                found.add(("name", node.id))
            elif is_self_attribute(node):
                found.add(("attr", node.attr))  # type: ignore[attr-defined]
    return found


def _reads(statement: ast.AST) -> set[Binding]:
    found: set[Binding] = set()
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            found.add(("name", node.id))
        elif is_self_attribute(node) and isinstance(node.ctx, ast.Load):  # type: ignore[attr-defined]
            found.add(("attr", node.attr))  # type: ignore[attr-defined]
    return found


def _finding(diagnostic: Diagnostic) -> Finding:
    location = diagnostic.location
    return Finding(
        diagnostic.code, diagnostic.name, diagnostic.message, location.row, location.column
    )


# --- text ----------------------------------------------------------------------------------------


def command_words(report: TraceReport) -> str:
    return shlex.join(report.command)


def exit_words(returncode: int | None) -> str:
    if returncode is None:
        return "could not be run"
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with {returncode}"


def site_headline(site: Site) -> str:
    dtypes = ", ".join(site.dtypes)
    outcome = "raised" if site.raised else f"-> {site.result or '?'}"
    inside = f" in autocast({site.autocast})" if site.autocast else ""
    times = f" (x{site.count})" if site.count > 1 else ""
    return f"{site.file}:{site.line}: {site.op}({dtypes}) {outcome}{inside}{times}"


def _related_words(related: list[Finding]) -> str:
    by_code: dict[str, list[str]] = {}
    for finding in related:
        by_code.setdefault(finding.code, []).append(str(finding.row))
    parts = [
        f"{code} at line{'s' if len(rows) > 1 else ''} {', '.join(rows)}"
        for code, rows in by_code.items()
    ]
    return "; ".join(parts)


def render_text(report: TraceReport) -> str:
    lines = [f"dtypelint trace: `{command_words(report)}` {exit_words(report.returncode)}"]
    if report.traced is None:
        lines.append(
            "warning: no Python process of the command imported torch under the tracer: "
            "nothing was traced (a Python started with -E or -I ignores PYTHONPATH)"
        )
    else:
        lines.append(f"traced process {report.traced['pid']} (torch {report.traced['torch']})")
        if not report.traced.get("complete"):
            lines.append("warning: it did not exit normally: counts may be short")
    lines.append("")
    for site in report.sites:
        lines.append(site_headline(site))
        for finding in site.findings:
            where = f" (line {finding.row})" if finding.row != site.line else ""
            lines.append(f"    found by check{where}: {finding.code} {finding.message}")
        if not site.findings:
            related = _related_words(site.related)
            lines.append(
                "    not found by check" + (f" (same function: {related})" if related else "")
            )
    found = sum(site.found_by_check for site in report.sites)
    count = len(report.sites)
    if count:
        lines.append("")
        lines.append(
            f"Found {count} mixed-dtype site{'s' if count != 1 else ''} "
            f"({found} found by check, {count - found} not found by check)."
        )
    else:
        lines.append("No mixed-dtype torch calls recorded.")
    if report.unattributed:
        lines.append(f"{report.unattributed} mixed calls outside your files were not reported.")
    lines.append("Not traced: " + "; ".join(NOT_COVERED) + ".")
    return "\n".join(lines) + "\n"


# --- JSON ----------------------------------------------------------------------------------------


def site_json(site: Site) -> dict[str, Any]:
    data = asdict(site)
    data["location"] = f"{site.file}:{site.line}"
    data["found_by_check"] = site.found_by_check
    return data


def render_json(report: TraceReport) -> str:
    found = sum(site.found_by_check for site in report.sites)
    data = {
        "command": report.command,
        "exit_code": report.returncode,
        "exit": exit_words(report.returncode),
        "traced": report.traced,
        "sites": [site_json(site) for site in report.sites],
        "unattributed_calls": report.unattributed,
        "summary": {
            "sites": len(report.sites),
            "found_by_check": found,
            "not_found_by_check": len(report.sites) - found,
        },
        "not_covered": list(NOT_COVERED),
    }
    return json.dumps(data, indent=2) + "\n"


# --- SARIF ---------------------------------------------------------------------------------------


def _fingerprint(site: Site) -> str:
    """Stable across runs and unrelated line shifts: file, op, dtypes and the line's text."""
    try:
        text = Path(site.path).read_text(errors="replace").splitlines()[site.line - 1].strip()
    except (OSError, IndexError):
        text = ""
    key = "\0".join([site.file, site.op, ",".join(site.dtypes), text])
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _sarif_result(site: Site, base: Path) -> dict[str, Any]:
    check = (
        "found by check: " + ", ".join(f"{f.code} {f.message}" for f in site.findings)
        if site.findings
        else "not found by check"
    )
    relative = not os.path.isabs(site.file)
    artifact = (
        {"uri": site.file, "uriBaseId": "%SRCROOT%"}
        if relative
        else {"uri": Path(site.path).as_uri()}
    )
    return {
        "ruleId": RULE_ID,
        "ruleIndex": 0,
        "level": "error" if site.raised or not site.findings else "warning",
        "message": {"text": f"{site_headline(site).split(': ', 1)[1]}; {check}"},
        "locations": [
            {"physicalLocation": {"artifactLocation": artifact, "region": {"startLine": site.line}}}
        ],
        "partialFingerprints": {"dtypelint-trace/v1": _fingerprint(site)},
        "properties": {
            "op": site.op,
            "dtypes": site.dtypes,
            "result": site.result,
            "raised": site.raised,
            "count": site.count,
            "autocast": site.autocast,
            "findings": [f.code for f in site.findings],
        },
    }


def render_sarif(report: TraceReport, base: Path) -> str:
    rule = {
        "id": RULE_ID,
        "name": "MixedDtypeCall",
        "shortDescription": {"text": "A torch call whose floating operands mix dtypes at runtime."},
        "fullDescription": {
            "text": "Recorded by `dtypelint trace` while the command ran: the call raised or "
            "promoted a low-precision activation (autocast's own casts excluded)."
        },
        "helpUri": PROJECT_URL,
        "defaultConfiguration": {"level": "error"},
    }
    base_uri = Path(os.path.abspath(base)).as_uri().rstrip("/") + "/"
    run = {
        "tool": {
            "driver": {
                "name": "dtypelint-trace",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": PROJECT_URL,
                "rules": [rule],
            }
        },
        "originalUriBaseIds": {"%SRCROOT%": {"uri": base_uri}},
        "invocations": [
            {
                "executionSuccessful": report.traced is not None,
                "commandLine": command_words(report),
                "properties": {"tracedExitCode": report.returncode},
            }
        ],
        "results": [_sarif_result(site, base) for site in report.sites],
    }
    return json.dumps({"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def render(report: TraceReport, output_format: str, base: Path) -> str:
    if output_format == "json":
        return render_json(report)
    if output_format == "sarif":
        return render_sarif(report, base)
    return render_text(report)
