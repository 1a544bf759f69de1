"""Writing the report so that one file's findings cannot sink it.

The report is rendered into a spooled buffer (memory up to a few MB, then an anonymous temporary
file) and copied to its stream only once complete. If rendering raises, each file's part is
rendered alone to find the files at fault; each is replaced by its DTL901 finding (an internal
error while reporting that file) and the report is rendered again, so every other file's
findings are still reported.
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable
from typing import Any, TextIO

from dtypelint.config import Config
from dtypelint.engine import RunOptions
from dtypelint.isolation import internal_error

#: Past this much text the buffered report moves from memory to an anonymous temporary file.
SPOOL_BYTES = 8 * 1024 * 1024
#: Reports of fewer findings are rendered in memory (a few MB at most) without loading tempfile:
#: the one-file run of a pre-commit hook does not pay for it.
SPOOL_FINDINGS = 10_000

Render = Callable[[Any, TextIO], None]


def write_isolated(render: Render, report: Any, stream: TextIO) -> Any:
    """`render(report, stream)`, with the files it cannot render reported as DTL901; returns the
    report as written."""
    try:
        _render_then_copy(render, report, stream)
        return report
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as first:
        repaired = _without_failing_outcomes(render, report)
        if repaired is report:
            raise first from None  # not one file's fault: an internal error, as before
    _render_then_copy(render, repaired, stream)
    return repaired


def _render_then_copy(render: Render, report: Any, stream: TextIO) -> None:
    findings = sum(len(outcome.diagnostics) for outcome in getattr(report, "outcomes", ()))
    if findings < SPOOL_FINDINGS:
        buffer = io.StringIO(newline="")
        render(report, buffer)
        stream.write(buffer.getvalue())
        return
    import shutil  # with tempfile: only a report too large to build in memory needs them
    import tempfile

    with tempfile.SpooledTemporaryFile(
        max_size=SPOOL_BYTES, mode="w+", encoding="utf-8", errors="surrogateescape", newline=""
    ) as spool:
        render(report, spool)  # type: ignore[arg-type]
        spool.seek(0)
        shutil.copyfileobj(spool, stream)  # type: ignore[misc]


def _without_failing_outcomes(render: Render, report: Any) -> Any:
    outcomes = list(report.outcomes)
    changed = False
    for index, outcome in enumerate(outcomes):
        try:
            render(dataclasses.replace(report, outcomes=[outcome]), io.StringIO())
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as exc:
            replacement = internal_error(
                outcome.filename, exc, Config(), RunOptions(), stage="reporting"
            )
            replacement.errors = [*outcome.errors, *replacement.errors]
            outcomes[index] = replacement
            changed = True
    return dataclasses.replace(report, outcomes=outcomes) if changed else report
