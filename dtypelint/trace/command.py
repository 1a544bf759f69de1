"""`dtypelint trace -- COMMAND ...`: run any command with the mixed-dtype recorder in its Python
process, then report every torch call that mixed floating dtypes, with the static finding (or
none) at each line.

This process never imports torch: the command runs as a child with our sitecustomize first on
its PYTHONPATH (see session.py), and its records come back through a temporary folder.
Exit codes: 1 when any site was recorded, else the command's own exit code; 2 when the command
cannot be started or the usage is wrong.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from dtypelint.trace.report import OUTPUT_FORMATS, build_report, render
from dtypelint.trace.session import ENV_DIR, ENV_PACKAGE, RECORDS_NAME

EXIT_ERROR = 2
_BOOTSTRAP = Path(__file__).resolve().parent / "_bootstrap"
_PACKAGE_PARENT = Path(__file__).resolve().parents[2]


class TraceUsageError(click.ClickException):
    exit_code = EXIT_ERROR

    def format_message(self) -> str:
        return f"dtypelint trace: {self.message}"


def traced_env(folder: Path) -> dict[str, str]:
    """The command's environment: our sitecustomize first on PYTHONPATH, the trace folder."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(_BOOTSTRAP), env.get("PYTHONPATH")]))
    env[ENV_DIR] = str(folder)
    env[ENV_PACKAGE] = str(_PACKAGE_PARENT)
    return env


@contextlib.contextmanager
def _signals_go_to_the_command() -> Iterator[None]:
    """Ctrl-C reaches the command (same process group); we wait for it and still report."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_traced(command: list[str], folder: Path, machine_output: bool) -> int:
    """Run the command to its end; its stdout goes to our stderr when ours carries a JSON or
    SARIF report, so that the report stays parseable."""
    stdout = sys.stderr.fileno() if machine_output else None
    try:
        with _signals_go_to_the_command():
            process = subprocess.Popen(command, env=traced_env(folder), stdout=stdout)
            return process.wait()
    except FileNotFoundError:
        raise TraceUsageError(f"command not found: {command[0]}") from None
    except PermissionError:
        raise TraceUsageError(f"command cannot be run: {command[0]}") from None


def read_records(folder: Path) -> dict[str, Any] | None:
    try:
        return json.loads((folder / RECORDS_NAME).read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return None


@click.command(
    "trace",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.option(
    "--output-format", type=click.Choice(OUTPUT_FORMATS), default="text", show_default=True
)
@click.option(
    "-o",
    "--output-file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the report here.",
)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.pass_context
def trace(
    ctx: click.Context, output_format: str, output_file: str | None, command: tuple[str, ...]
) -> None:
    """Run COMMAND and report every torch call that mixed floating dtypes.

    \b
    dtypelint trace -- python train.py --steps 2
    dtypelint trace -- python -m pytest tests/models

    Each site is reported at the innermost line of your code (not torch's, not an installed
    package's) with the op, the dtypes, how often, whether it raised, and the finding
    `dtypelint check` makes there, or "not found by check". Exit 1 when any site was recorded,
    else the command's own exit code.
    """
    if not command:
        raise TraceUsageError("no command given: dtypelint trace -- python train.py")
    machine = output_format != "text" and output_file is None
    with tempfile.TemporaryDirectory(prefix="dtypelint-trace-") as temp:
        folder = Path(temp)
        returncode = run_traced(list(command), folder, machine)
        records = read_records(folder)
    report = build_report(records, command, returncode, Path.cwd())
    text = render(report, output_format, Path.cwd())
    if output_file is not None:
        Path(output_file).write_text(text)
    else:
        click.echo(text, nl=False)
    ctx.exit(report.exit_code)
