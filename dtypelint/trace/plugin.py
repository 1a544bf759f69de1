"""The pytest plugin: `pytest -p dtypelint.trace` traces the test session in process.

It records from pytest's configuration on (conftest files and test modules included), prints
the `dtypelint trace` report in the terminal summary (or writes it with
`--dtypelint-trace-output FILE`), and turns a passing run into exit status 1 when any site was
recorded. Under `dtypelint trace -- pytest ...` it stands aside: the outer recorder is on.

Only the standard library is imported here at module level: pytest imports this module to find
the hooks, and `import dtypelint.trace` must stay free of torch.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from dtypelint.trace.session import ENV_DIR

_KEY = "_dtypelint_trace"


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("dtypelint-trace", "dtypelint trace: mixed-dtype torch calls")
    group.addoption(
        "--dtypelint-trace-format",
        choices=("text", "json", "sarif"),
        default="text",
        help="Report format (default text).",
    )
    group.addoption(
        "--dtypelint-trace-output",
        metavar="FILE",
        default=None,
        help="Write the report to FILE instead of the terminal summary.",
    )


def pytest_configure(config: Any) -> None:
    if os.environ.get(ENV_DIR) or hasattr(config, "workerinput"):
        return  # under `dtypelint trace`, or an xdist worker: not ours to record
    from dtypelint.trace.session import TraceSession

    session = TraceSession()
    session.start()
    setattr(config, _KEY, {"session": session, "report": None})


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    state = getattr(session.config, _KEY, None)
    if state is None:
        return
    from dtypelint.trace.report import build_report

    tracer = state["session"]
    tracer.stop()
    report = build_report(
        tracer.snapshot(complete=True),
        ["pytest", *sys.argv[1:]],
        int(session.exitstatus),
        Path(session.config.invocation_params.dir),
    )
    state["report"] = report
    if report.sites and session.exitstatus == 0:
        session.exitstatus = 1  # the run passed, but mixed-dtype calls were recorded


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: Any) -> None:
    state = getattr(config, _KEY, None)
    if state is None or state["report"] is None:
        return
    from dtypelint.trace.report import render

    option = config.option
    base = Path(config.invocation_params.dir)
    text = render(state["report"], option.dtypelint_trace_format, base)
    if option.dtypelint_trace_output:
        Path(option.dtypelint_trace_output).write_text(text)
        terminalreporter.write_line(
            f"dtypelint trace: report written to {option.dtypelint_trace_output}"
        )
        return
    terminalreporter.section("dtypelint trace")
    for line in text.rstrip("\n").splitlines():
        terminalreporter.write_line(line)
