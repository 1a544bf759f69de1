"""Rendering a `dtypelint verify` run: a text table with details, or JSON."""

from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from dtypelint.verify.harness import ExampleResult, VerifyReport
from dtypelint.verify.verdict import FAILING_VERDICTS, tolerance
from dtypelint.verify.workspace import display_path

VERDICT_ORDER = ("confirmed", "no-hazard", "still-failing", "regressed", "timeout", "import-error")


# --- shared pieces -----------------------------------------------------------------------------


def location(frame: dict[str, Any] | None, root: Path) -> str | None:
    """`file:line` of a runner frame; project files are relative to the root in the result."""
    if not frame:
        return None
    file = frame["file"]
    shown = display_path(Path(file) if os.path.isabs(file) else root / file)
    return f"{shown}:{frame['line']}"


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def side_json(outcome: dict[str, Any] | None, root: Path) -> dict[str, Any] | None:
    if outcome is None:
        return None
    exception = outcome.get("exception")
    error = outcome.get("error")
    note = outcome.get("error_note")
    if error is not None and not math.isfinite(error):
        note = note or "non-finite values where the float32 reference is finite"
    return {
        "status": outcome["status"],
        "exception": None
        if not exception
        else {
            "type": exception["type"],
            "message": exception["message"],
            "location": location(exception.get("frame"), root),
            "function": (exception.get("frame") or {}).get("function"),
            "op": exception.get("op"),
            "dtypes": exception.get("dtypes"),
            "where": exception.get("where"),
        },
        "mixed_ops": [
            {
                "op": op["op"],
                "dtypes": op["dtypes"],
                "result": op["result"],
                "raised": op["raised"],
                "location": location(op.get("frame"), root),
                "count": op["count"],
                "autocast": op.get("autocast"),
            }
            for op in outcome.get("mixed_ops", [])
        ],
        "output_dtypes": [output["dtype"] for output in outcome.get("outputs", [])],
        "outputs": outcome.get("outputs", []),
        "max_error": _finite(error),
        "error_note": note,
        "seconds": outcome.get("seconds"),
    }


def example_json(result: ExampleResult, root: Path) -> dict[str, Any]:
    data: dict[str, Any] = {
        "example": result.example.id,
        "file": display_path(result.example.file),
        "function": result.example.name,
        "verdict": result.verdict.name,
        "reason": result.verdict.reason,
        "before": side_json(result.before, root),
        "after": side_json(result.after, root),
        "reference": None
        if result.reference is None
        else {
            "status": result.reference["status"],
            "exception": (side_json(result.reference, root) or {}).get("exception"),
        },
        "findings": result.findings,
        "notes": result.notes,
    }
    if result.compiled:
        data["compiled"] = {
            side: {
                **(side_json(outcome, root) or {}),
                "disagreement": compile_disagreement(_eager(result, side), outcome),
            }
            for side, outcome in result.compiled.items()
        }
    return data


def _eager(result: ExampleResult, side: str) -> dict[str, Any] | None:
    return result.before if side == "before" else result.after


def summary(report: VerifyReport) -> Counter[str]:
    return Counter(result.verdict.name for result in report.results)


def exit_code(report: VerifyReport) -> int:
    failing = any(result.verdict.name in FAILING_VERDICTS for result in report.results)
    return 1 if failing else 0


def compile_disagreement(eager: dict[str, Any] | None, compiled: dict[str, Any]) -> str | None:
    """How the compiled run differs from eager, in words (pytorch#177630: inductor may promote
    a mixed-dtype bmm/matmul silently where eager raises)."""
    if eager is None:
        return None
    eager_raised = eager["status"] == "raised"
    compiled_raised = compiled["status"] == "raised"
    compiled_dtypes = sorted({o["dtype"] for o in compiled.get("outputs", [])})
    if eager_raised and not compiled_raised:
        return (
            "eager raises but the compiled run does not: compile hides the error, outputs "
            f"{', '.join(compiled_dtypes) or 'none'} (silent promotion, see pytorch#177630)"
        )
    if compiled_raised and not eager_raised:
        message = (compiled.get("exception") or {}).get("message", "")
        return f"the compiled run raises where eager does not: {message_summary(message)}"
    eager_dtypes = sorted({o["dtype"] for o in eager.get("outputs", [])})
    if not compiled_raised and eager_dtypes != compiled_dtypes:
        return (
            f"output dtypes differ: eager {', '.join(eager_dtypes) or 'none'}, "
            f"compiled {', '.join(compiled_dtypes) or 'none'}"
        )
    return None


# --- JSON --------------------------------------------------------------------------------------


def render_json(report: VerifyReport) -> str:
    choice = report.probe.choice
    data = {
        "device": choice.device,
        "device_name": choice.name,
        "capability": choice.capability_text if choice.capability else None,
        "dtype": choice.dtype,
        "reason": choice.reason,
        "torch": report.probe.torch_version,
        "tolerance": tolerance(choice.dtype),
        "project_root": display_path(report.project_root),
        "compile": None
        if report.probe.compile_backend is None
        else {"backend": report.probe.compile_backend, "reason": report.probe.compile_reason},
        "fixes": [
            {"file": display_path(path), "count": len(applied)}
            for path, applied in report.tree.applied.items()
        ],
        "examples": [example_json(result, report.project_root) for result in report.results],
        "summary": dict(summary(report)),
        "worker_processes": report.processes,
    }
    return json.dumps(data, indent=2)


# --- text --------------------------------------------------------------------------------------


def render_text(report: VerifyReport) -> str:
    lines = _header(report)
    lines += ["", *_table(report)]
    for result in report.results:
        lines += ["", *_details(result, report)]
    counts = summary(report)
    parts = [f"{counts[name]} {name}" for name in VERDICT_ORDER if counts[name]]
    total = len(report.results)
    lines += ["", f"{total} example{'s' if total != 1 else ''}: {', '.join(parts)}."]
    return "\n".join(lines) + "\n"


def _header(report: VerifyReport) -> list[str]:
    choice = report.probe.choice
    fixes = sum(len(applied) for applied in report.tree.applied.values())
    lines = [
        f"dtypelint verify: device {choice.device} ({choice.name}), compute capability "
        f"{choice.capability_text}, dtype {choice.dtype}: {choice.reason}",
        f"torch {report.probe.torch_version}; project root {display_path(report.project_root)}; "
        f"{fixes} fix{'es' if fixes != 1 else ''} in {len(report.tree.applied)} "
        f"file{'s' if len(report.tree.applied) != 1 else ''}; tolerance "
        f"{tolerance(choice.dtype):g} (max|out - ref| / max|ref| against an all-float32 run)",
    ]
    if report.probe.compile_backend:
        lines.append(f"compile: {report.probe.compile_reason}")
    for path in report.tree.outside_root:
        lines.append(f"warning: {display_path(path)} is outside the project root: not patched")
    return lines


def _error_text(outcome: dict[str, Any] | None) -> str:
    if not outcome:
        return "-"
    error = outcome.get("error")
    if error is None:
        return "-"
    return "inf" if not math.isfinite(error) else f"{error:.1e}"


def _findings_cell(findings: list[dict[str, Any]]) -> str:
    if not findings:
        return "-"
    codes = Counter(finding["code"] for finding in findings)
    return ", ".join(f"{code} x{n}" if n > 1 else code for code, n in sorted(codes.items()))


def _table(report: VerifyReport) -> list[str]:
    header = ("example", "before", "after", "verdict", "max err vs fp32", "findings")
    rows = [header]
    for result in report.results:
        after = result.after["status"] if result.after else "not run"
        errors = f"{_error_text(result.before)} -> {_error_text(result.after)}"
        rows.append(
            (
                result.example.id,
                result.before["status"],
                after,
                result.verdict.name,
                errors,
                _findings_cell(result.findings),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _details(result: ExampleResult, report: VerifyReport) -> list[str]:
    root = report.project_root
    lines = [f"{result.example.id}: {result.verdict.name} ({result.verdict.reason})"]
    lines += _side_lines("before", result.before, root)
    if result.after is not None and result.after is not result.before:
        lines += _side_lines("after", result.after, root)
    reference = result.reference
    if reference and reference["status"] == "raised":
        exception = reference.get("exception") or {}
        lines.append(f"  float32 reference raised: {exception.get('message', '')[:200]}")
    for side, outcome in result.compiled.items():
        lines.append(f"  compiled ({side}): {_status_line(outcome, root)}")
        disagreement = compile_disagreement(_eager(result, side), outcome)
        if disagreement:
            lines.append(f"    ! {disagreement}")
    lines += [f"  note: {note}" for note in result.notes]
    if result.findings:
        lines.append("  findings in the files involved:")
        for finding in result.findings:
            marks = [mark for mark, on in (("fixed", finding["fixed"]),) if on]
            if finding["at_recorded_line"]:
                marks.append("on a recorded line")
            suffix = f"  [{', '.join(marks)}]" if marks else ""
            lines.append(
                f"    {finding['file']}:{finding['row']}: {finding['code']} "
                f"{finding['message']}{suffix}"
            )
    return lines


def _status_line(outcome: dict[str, Any], root: Path) -> str:
    status = outcome["status"]
    exception = outcome.get("exception")
    if exception:
        kind = "" if exception["type"] == "Timeout" else f"{exception['type']}: "
        text = f"{status}: {kind}{message_summary(exception['message'])}"
        if exception.get("op"):
            text += f"\n      in {exception['op']}({', '.join(exception['dtypes'] or [])})"
        where = location(exception.get("frame"), root)
        if where:
            text += f"\n      at {where}"
        if exception.get("where"):
            text += f" (while {exception['where']})"
        return text
    dtypes = Counter(output["dtype"] for output in outcome.get("outputs", []))
    shown = ", ".join(f"{dtype} x{n}" if n > 1 else dtype for dtype, n in dtypes.items())
    text = f"{status}, outputs {shown or 'none'}"
    if outcome.get("error") is not None:
        text += f", max error {_error_text(outcome)} vs float32"
    elif outcome.get("error_note"):
        text += f" ({outcome['error_note']})"
    return text


_INNER_ERROR = re.compile(r"got (\w+(?:Error|Exception)\(.{0,200}?\))(?:\n|$)")


def message_summary(message: str) -> str:
    """The first line of an exception message, plus the wrapped error dynamo reports as
    `got RuntimeError('...')` deeper in its message."""
    lines = message.strip().splitlines() or [""]
    summary = lines[0][:200]
    inner = _INNER_ERROR.search(message)
    if inner and inner.group(1) not in summary:
        summary += f" ({inner.group(1)})"
    return summary


def _side_lines(label: str, outcome: dict[str, Any], root: Path) -> list[str]:
    lines = [f"  {label + ':':8}{_status_line(outcome, root)}"]
    for op in outcome.get("mixed_ops", []):
        result = "raised" if op["raised"] else f"-> {op['result'] or '?'}"
        times = f" (x{op['count']})" if op["count"] > 1 else ""
        where = location(op.get("frame"), root) or "?"
        inside = f" in autocast({op['autocast']})" if op.get("autocast") else ""
        lines.append(
            f"    mixed: {op['op']}({', '.join(op['dtypes'])}) {result}{inside} at {where}{times}"
        )
    return lines
