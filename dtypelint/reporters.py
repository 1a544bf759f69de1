"""Output formats. Each is one function `(RunReport, stream) -> None`, listed in REPORTERS.

Adding a format is writing one such function and adding it to REPORTERS. `--statistics` replaces
the report with counts per code (`report_statistics`). `full` (alias `text`), `concise`, `json`,
the summaries and the statistics follow ruff 0.17, so that tools and habits built on ruff's output
work unchanged.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from dtypelint import __version__
from dtypelint.diagnostics import Diagnostic, Edit, Location
from dtypelint.engine import FileOutcome
from dtypelint.fixer import is_applicable
from dtypelint.rules import (
    ENGINE_CODES,
    INTERNAL_ERROR_CODE,
    IO_ERROR_CODE,
    NEWER_SYNTAX_CODE,
    SYNTAX_ERROR_CODE,
)

PROJECT_URL = "https://github.com/dtypelint/dtypelint"
#: One-line summaries of the codes the engine reports itself (rules carry their own).
ENGINE_SUMMARIES = {
    SYNTAX_ERROR_CODE: "A file that cannot be decoded or parsed.",
    IO_ERROR_CODE: "A path that does not exist or cannot be read.",
    INTERNAL_ERROR_CODE: "An internal error of dtypelint on one file; the other files are checked.",
    NEWER_SYNTAX_CODE: "Syntax of a newer Python than the one dtypelint runs on.",
}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"


@dataclass(frozen=True)
class RunReport:
    outcomes: list[FileOutcome]
    fix: bool = False  # fixes were applied (--fix): count what was fixed and what remains
    unsafe: bool = False  # unsafe fixes are enabled (--unsafe-fixes)
    show_fixes: bool = False
    # `unsafe-fixes` was not set either way: summaries say how many unsafe fixes are available.
    unsafe_hint: bool = True
    quiet: bool = False  # -q: the findings, no summary

    @property
    def has_errors(self) -> bool:
        """Something could not be checked or written (the run exits 2)."""
        return any(outcome.errors for outcome in self.outcomes)

    def diagnostics(self) -> Iterator[tuple[FileOutcome, Diagnostic]]:
        for outcome in self.outcomes:
            for diagnostic in outcome.diagnostics:
                yield outcome, diagnostic

    @property
    def remaining(self) -> int:
        return sum(len(outcome.diagnostics) for outcome in self.outcomes)

    @property
    def fixed(self) -> int:
        return sum(len(outcome.fixed) for outcome in self.outcomes)


Reporter = Callable[[RunReport, TextIO], None]


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else (plural or word + 's')}"


def _es(count: int) -> str:
    return "" if count == 1 else "es"


def _marked(report: RunReport, diagnostic: Diagnostic) -> bool:
    """ruff's `[*]`: a fix `--fix` would apply. After `--fix` what remains is not marked."""
    return not report.fix and is_applicable(diagnostic, report.unsafe)


def _fix_counts(report: RunReport) -> tuple[int, int]:
    """(fixes `--fix` would apply, unsafe fixes it would not) among the remaining findings."""
    applicable = hidden = 0
    for _, diagnostic in report.diagnostics():
        if is_applicable(diagnostic, report.unsafe):
            applicable += 1
        elif diagnostic.fix is not None:
            hidden += 1
    return applicable, hidden


def summary_lines(report: RunReport) -> list[str]:
    """ruff 0.17's summary. Never "All checks passed!" when something could not be checked."""
    remaining, fixed = report.remaining, report.fixed
    lines = []
    if fixed:
        total = remaining + fixed
        lines.append(f"Found {_plural(total, 'error')} ({fixed} fixed, {remaining} remaining).")
    elif remaining:
        lines.append(f"Found {_plural(remaining, 'error')}.")
    elif not report.has_errors:
        lines.append("All checks passed!")
    applicable, hidden = _fix_counts(report)
    unsafe = f"{hidden} unsafe fix{_es(hidden)} available with `--fix --unsafe-fixes`"
    if report.unsafe_hint and applicable and hidden:
        lines.append(f"[*] {applicable} fixable with `--fix` ({unsafe}).")
    elif applicable:
        lines.append(f"[*] {applicable} fixable with `--fix`.")
    elif report.unsafe_hint and hidden:
        lines.append(f"{unsafe}.")
    return lines


def fix_only_summary(report: RunReport, *, applied: bool) -> list[str]:
    """`--fix-only` (applied) and `--diff` (not applied): what was or would be fixed."""
    fixed = report.fixed
    _, unapplied = _fix_counts(report)
    verb = "Fixed" if applied else "Would fix"
    if unapplied:
        more = f"{unapplied} fix{_es(unapplied)} available with `--unsafe-fixes`"
        if fixed:
            extra = more.replace(" fix", " additional fix", 1)
            return [f"{verb} {_plural(fixed, 'error')} ({extra})."]
        nothing = "No errors fixed" if applied else "No errors would be fixed"
        return [f"{nothing} ({more})."]
    return [f"{verb} {_plural(fixed, 'error')}."] if fixed else []


def fixes_summary(report: RunReport) -> list[str]:
    """`--show-fixes`: what was fixed, per file and code (ruff's layout, blank lines included)."""
    if not report.fixed:
        return []
    lines = ["", f"Fixed {_plural(report.fixed, 'error')}:"]
    for outcome in report.outcomes:
        if not outcome.fixed:
            continue
        lines.append(f"- {outcome.filename}:")
        counts = Counter((d.code, d.name) for d in outcome.fixed)
        for (code, name), count in sorted(counts.items()):
            lines.append(f"    {count} × {code} ({name})")  # noqa: RUF001 - ruff's sign
    return [*lines, ""]


def _tail(report: RunReport, out: TextIO) -> None:
    if report.show_fixes and report.fix:
        for line in fixes_summary(report):
            out.write(line + "\n")
    if not report.quiet:
        for line in summary_lines(report):
            out.write(line + "\n")


def report_fix_only(report: RunReport, out: TextIO, *, applied: bool = True) -> None:
    """The text formats' report when the findings are not shown (`--fix-only`, `--diff`)."""
    if report.show_fixes and applied:
        for line in fixes_summary(report):
            out.write(line + "\n")
    if not report.quiet:
        for line in fix_only_summary(report, applied=applied):
            out.write(line + "\n")


def report_full(report: RunReport, out: TextIO) -> None:
    from dtypelint.render_full import render

    for outcome, diagnostic in report.diagnostics():
        lines = render(diagnostic, outcome.lines, outcome.line_count, _marked(report, diagnostic))
        out.write("\n".join(lines) + "\n\n")
    _tail(report, out)


def concise_line(report: RunReport, diagnostic: Diagnostic) -> str:
    location = diagnostic.location
    marker = " [*]" if _marked(report, diagnostic) else ""
    return (
        f"{diagnostic.filename}:{location.row}:{location.column}: "
        f"{diagnostic.code}{marker} {diagnostic.message}"
    )


def report_concise(report: RunReport, out: TextIO) -> None:
    for _, diagnostic in report.diagnostics():
        out.write(concise_line(report, diagnostic) + "\n")
    _tail(report, out)


# --- json: ruff's objects, so that tools that read `ruff check --output-format json` read ours --


def _json_location(location: Location) -> dict[str, int]:
    return {"column": location.column, "row": location.row}


def ruff_json(diagnostic: Diagnostic) -> dict[str, Any]:
    """One finding as ruff 0.17 writes it: every field, absolute file names, 1-based positions.

    `noqa_row` is the line whose `# noqa` silences the finding (none for DTL000 and DTL9xx,
    which no comment can silence); `cell` is for notebooks, which dtypelint does not read.
    """
    fix = diagnostic.fix
    filename = diagnostic.filename
    silenceable = diagnostic.code not in ENGINE_CODES
    return {
        "cell": None,
        "code": diagnostic.code,
        "end_location": _json_location(diagnostic.end_location),
        "filename": filename if filename == "-" else os.path.abspath(filename),
        "fix": None
        if fix is None
        else {
            "applicability": fix.applicability.value,
            "edits": [
                {
                    "content": edit.content,
                    "end_location": _json_location(edit.end_location),
                    "location": _json_location(edit.location),
                }
                for edit in fix.edits
            ],
            "message": fix.message,
        },
        "location": _json_location(diagnostic.location),
        "message": diagnostic.message,
        "name": diagnostic.name,
        "noqa_row": diagnostic.location.row if silenceable else None,
        "severity": "error",
        "url": diagnostic.url,
    }


def report_json(report: RunReport, out: TextIO) -> None:
    findings = [ruff_json(diagnostic) for _, diagnostic in report.diagnostics()]
    import json

    out.write(json.dumps(findings, indent=2, ensure_ascii=False) + "\n")


# --- github: workflow commands that GitHub Actions turns into annotations on the diff -----------


def _escape_data(text: str) -> str:
    # GitHub's escaping for a workflow command's message (actions/toolkit, command.ts).
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def report_github(report: RunReport, out: TextIO) -> None:
    base = Path.cwd()
    for _, diagnostic in report.diagnostics():
        start, end = diagnostic.location, diagnostic.end_location
        properties = {
            "title": f"dtypelint ({diagnostic.code})",
            "file": _shown_path(diagnostic.filename, base),
            "line": start.row,
            "col": start.column,
            "endLine": end.row,
            "endColumn": end.column,
        }
        joined = ",".join(
            f"{key}={_escape_property(str(value))}" for key, value in properties.items()
        )
        message = _escape_data(f"{diagnostic.code} {diagnostic.message}")
        out.write(f"::error {joined}::{message}\n")


def _shown_path(filename: str, base: Path) -> str:
    """`filename` relative to `base` with forward slashes, or as given when outside it."""
    relative = _relative_to(filename, base)
    return relative if relative is not None else filename


def _relative_to(filename: str, base: Path) -> str | None:
    absolute = Path(os.path.abspath(filename))
    try:
        return absolute.relative_to(os.path.abspath(base)).as_posix()
    except ValueError:
        return None


# --- sarif: SARIF 2.1.0 for GitHub code scanning and other SARIF viewers -----------------------


def report_sarif(report: RunReport, out: TextIO) -> None:
    import json

    out.write(json.dumps(sarif_log(report, Path.cwd()), indent=2, ensure_ascii=False) + "\n")


def sarif_log(report: RunReport, base: Path) -> dict[str, Any]:
    """One run; artifact URIs are relative to `base` (the working folder) via %SRCROOT%."""
    from dtypelint.gate import FINGERPRINT_KEY, fingerprint

    rules = _sarif_rules()
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    results = []
    for outcome, diagnostic in report.diagnostics():
        location = _artifact_location(diagnostic.filename, base)
        result: dict[str, Any] = {
            "ruleId": diagnostic.code,
            "level": "error",
            "message": {"text": diagnostic.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": location,
                        "region": _region(diagnostic.location, diagnostic.end_location),
                    }
                }
            ],
            "partialFingerprints": {
                FINGERPRINT_KEY: fingerprint(
                    diagnostic, outcome.lines, _shown_path(diagnostic.filename, base)
                )
            },
        }
        if diagnostic.code in index:
            result["ruleIndex"] = index[diagnostic.code]
        if diagnostic.fix is not None:
            result["fixes"] = [_sarif_fix(diagnostic, location)]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dtypelint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "informationUri": PROJECT_URL,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": _folder_uri(base)}},
                # Our columns count characters (code points), not SARIF's default UTF-16 units.
                "columnKind": "unicodeCodePoints",
                "invocations": [
                    {"executionSuccessful": not any(o.errors for o in report.outcomes)}
                ],
                "results": results,
            }
        ],
    }


def _folder_uri(folder: Path) -> str:
    uri = Path(os.path.abspath(folder)).as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _artifact_location(filename: str, base: Path) -> dict[str, str]:
    relative = _relative_to(filename, base)
    if relative is None:  # outside the source root: an absolute file URI
        return {"uri": Path(os.path.abspath(filename)).as_uri()}
    import urllib.parse

    # The file system's bytes: a name that is not UTF-8 (surrogate escapes) is %-quoted too.
    return {"uri": urllib.parse.quote(os.fsencode(relative)), "uriBaseId": SRCROOT}


def _region(start: Location, end: Location) -> dict[str, int]:
    return {
        "startLine": start.row,
        "startColumn": start.column,
        "endLine": end.row,
        "endColumn": end.column,
    }


def _sarif_fix(diagnostic: Diagnostic, location: dict[str, str]) -> dict[str, Any]:
    assert diagnostic.fix is not None
    fix = diagnostic.fix
    return {
        "description": {"text": f"{fix.message} ({fix.applicability.value} fix)"},
        "artifactChanges": [
            {"artifactLocation": location, "replacements": [_replacement(e) for e in fix.edits]}
        ],
        "properties": {"applicability": fix.applicability.value},
    }


def _replacement(edit: Edit) -> dict[str, Any]:
    replacement: dict[str, Any] = {"deletedRegion": _region(edit.location, edit.end_location)}
    if edit.content:
        replacement["insertedContent"] = {"text": edit.content}
    return replacement


def _sarif_rules() -> list[dict[str, Any]]:
    """Every rule (DTL000 included), with its page as the help text."""
    from dtypelint.diagnostics import RULES_URL
    from dtypelint.docs import rule_page
    from dtypelint.rules import ALL_RULES, RULE_NAMES

    summaries = {rule.code: rule.summary for rule in ALL_RULES} | ENGINE_SUMMARIES
    rules = []
    for code, name in sorted(RULE_NAMES.items()):
        page = rule_page(code) or f"# {name} ({code})\n\n{summaries.get(code, name)}\n"
        rules.append(
            {
                "id": code,
                "name": name,
                "shortDescription": {"text": summaries.get(code, name)},
                "fullDescription": {"text": _what_it_does(page) or summaries.get(code, name)},
                "help": {"text": page, "markdown": page},
                "helpUri": RULES_URL.format(code=code),
                "defaultConfiguration": {"level": "error"},
                "properties": {"tags": ["dtype", "bf16"]},
            }
        )
    return rules


def _what_it_does(page: str) -> str:
    """The text of the page's `## What it does` section, on one line."""
    lines = page.splitlines()
    try:
        first = lines.index("## What it does") + 1
    except ValueError:
        return ""
    body = []
    for line in lines[first:]:
        if line.startswith("## "):
            break
        body.append(line.strip())
    return " ".join(part for part in body if part)


# --- junit: one testcase per finding, one testsuite per file ------------------------------------


def report_junit(report: RunReport, out: TextIO) -> None:
    import xml.etree.ElementTree as ET

    total = report.remaining
    suites = ET.Element(
        "testsuites", name="dtypelint", tests=str(max(total, 1)), failures=str(total), errors="0"
    )
    by_file: dict[str, list[Diagnostic]] = {}
    for _, diagnostic in report.diagnostics():
        by_file.setdefault(diagnostic.filename, []).append(diagnostic)
    if not by_file:  # CI systems want at least one test: a passing one
        suite = ET.SubElement(suites, "testsuite", name="dtypelint", tests="1", failures="0")
        ET.SubElement(suite, "testcase", name="No errors found", classname="dtypelint")
    for filename, diagnostics in by_file.items():
        count = str(len(diagnostics))
        suite = ET.SubElement(
            suites, "testsuite", name=filename, tests=count, failures=count, errors="0"
        )
        for diagnostic in diagnostics:
            start = diagnostic.location
            case = ET.SubElement(
                suite,
                "testcase",
                name=f"{diagnostic.code} ({diagnostic.name}) at {start.row}:{start.column}",
                classname=filename,
                file=filename,
                line=str(start.row),
            )
            failure = ET.SubElement(
                case, "failure", message=diagnostic.message, type=diagnostic.code
            )
            failure.text = (
                f"{filename}:{start.row}:{start.column}: {diagnostic.code} {diagnostic.message}"
                f"\n{diagnostic.url}"
            )
    ET.indent(suites)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ET.tostring(suites, encoding="unicode") + "\n")


# --- --statistics ------------------------------------------------------------------------------


def statistics(report: RunReport) -> list[dict[str, Any]]:
    """Per code, most frequent first (ties in code order), as ruff's `--statistics` JSON.

    `fixable`: every finding of the code has a fix `--fix` would apply; `fixable_count`: how many.
    """
    counts: Counter[tuple[str, str]] = Counter()
    fixable: Counter[str] = Counter()
    for _, diagnostic in report.diagnostics():
        counts[(diagnostic.code, diagnostic.name)] += 1
        fixable[diagnostic.code] += is_applicable(diagnostic, report.unsafe)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0][0]))
    return [
        {
            "code": code,
            "name": name,
            "count": count,
            "fixable": fixable[code] == count,
            "fixable_count": fixable[code],
        }
        for (code, name), count in ordered
    ]


def report_statistics(report: RunReport, out: TextIO) -> None:
    """ruff's (and flake8's) layout: count, code and name separated by tabs; nothing when clean."""
    rows = statistics(report)
    if not rows:
        return
    width = max(len(str(row["count"])) for row in rows)
    code_width = max(len(row["code"]) for row in rows)
    any_fixable = any(row["fixable"] for row in rows)
    for row in rows:
        marker = ("[*] " if row["fixable"] else "[ ] ") if any_fixable else ""
        out.write(f"{row['count']:>{width}}\t{row['code']:<{code_width}}\t{marker}{row['name']}\n")
    if not report.quiet:
        for line in summary_lines(report):
            out.write(line + "\n")


def report_statistics_json(report: RunReport, out: TextIO) -> None:
    import json

    out.write(json.dumps(statistics(report), indent=2) + "\n")


REPORTERS: dict[str, Reporter] = {
    "full": report_full,
    "text": report_full,
    "concise": report_concise,
    "json": report_json,
    "github": report_github,
    "sarif": report_sarif,
    "junit": report_junit,
}
