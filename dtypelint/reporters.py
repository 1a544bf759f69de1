"""Output formats. Each is one function `(RunReport, stream) -> None`, listed in REPORTERS.

Adding a format (github, sarif, junit) is writing one such function and adding it to REPORTERS.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from dtypelint.diagnostics import Diagnostic
from dtypelint.engine import FileOutcome
from dtypelint.fixer import is_applicable


@dataclass(frozen=True)
class RunReport:
    outcomes: list[FileOutcome]
    fix: bool = False  # fixes were applied (--fix): count what was fixed and what remains
    unsafe: bool = False  # unsafe fixes are enabled (--unsafe-fixes)
    show_fixes: bool = False

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


def _headline(diagnostic: Diagnostic, unsafe: bool) -> str:
    location = diagnostic.location
    marker = " [*]" if is_applicable(diagnostic, unsafe) else ""
    return (
        f"{diagnostic.filename}:{location.row}:{location.column}: "
        f"{diagnostic.code}{marker} {diagnostic.message}"
    )


def _caret_lines(diagnostic: Diagnostic, line: str) -> list[str]:
    """The source line with `^` under the span (to the line's end when the span goes on)."""
    start, end = diagnostic.location, diagnostic.end_location
    first = min(start.column, len(line) + 1)
    last = end.column if end.row == start.row else len(line) + 1
    width = max(1, last - first)
    # Keep tabs so the carets line up under the same characters.
    indent = "".join(ch if ch == "\t" else " " for ch in line[: first - 1])
    number = str(start.row)
    gutter = " " * len(number)
    return [
        f"{gutter} |",
        f"{number} | {line}",
        f"{gutter} | {indent}{'^' * width} {diagnostic.code}",
        f"{gutter} |",
    ]


def summary_lines(report: RunReport) -> list[str]:
    remaining, fixed = report.remaining, report.fixed
    if remaining == 0 and fixed == 0:
        return ["All checks passed!"]
    hidden = sum(
        1
        for _, diagnostic in report.diagnostics()
        if diagnostic.fix is not None and not is_applicable(diagnostic, report.unsafe)
    )
    hint = (
        [
            f"{_plural(hidden, 'hidden fix', 'hidden fixes')} can be enabled with the "
            "`--unsafe-fixes` option."
        ]
        if hidden
        else []
    )
    if report.fix:
        total = remaining + fixed
        return [f"Found {_plural(total, 'error')} ({fixed} fixed, {remaining} remaining).", *hint]
    fixable = sum(1 for _, d in report.diagnostics() if is_applicable(d, report.unsafe))
    extra = f" ({fixable} fixable with the `--fix` option)" if fixable else ""
    return [f"Found {_plural(remaining, 'error')}{extra}.", *hint]


def fixes_summary(report: RunReport) -> list[str]:
    """`--show-fixes`: what was fixed, per file and code (ruff's layout)."""
    if not report.fixed:
        return []
    lines = [f"Fixed {_plural(report.fixed, 'error')}:"]
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
    for line in summary_lines(report):
        out.write(line + "\n")


def report_text(report: RunReport, out: TextIO) -> None:
    for outcome, diagnostic in report.diagnostics():
        out.write(_headline(diagnostic, report.unsafe) + "\n")
        line = outcome.lines.get(diagnostic.location.row)
        if line is not None:
            for text in _caret_lines(diagnostic, line):
                out.write(text.rstrip() + "\n")
        if diagnostic.fix is not None:
            gutter = " " * len(str(diagnostic.location.row))
            out.write(f"{gutter} = help: {diagnostic.fix.message}\n")
        out.write("\n")
    _tail(report, out)


def report_concise(report: RunReport, out: TextIO) -> None:
    for _, diagnostic in report.diagnostics():
        out.write(_headline(diagnostic, report.unsafe) + "\n")
    _tail(report, out)


def report_json(report: RunReport, out: TextIO) -> None:
    findings = [diagnostic.to_json() for _, diagnostic in report.diagnostics()]
    out.write(json.dumps(findings, indent=2, ensure_ascii=False) + "\n")


REPORTERS: dict[str, Reporter] = {
    "text": report_text,
    "concise": report_concise,
    "json": report_json,
}
