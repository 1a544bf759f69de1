"""`dtypelint verify`: run examples before and after the fixes and report what changed.

Importing this module never imports torch: torch runs only in the subprocesses the harness starts.
Exit codes: 0 every example is confirmed or has no hazard; 1 an example is still failing,
regressed, timed out or could not be imported; 2 bad usage, bad config, torch missing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from dtypelint.config import (
    VERIFY_DEVICES,
    VERIFY_DTYPES,
    Config,
    ConfigError,
    config_start,
    load_config,
)

EXIT_ERROR = 2
DEFAULT_TIMEOUT_S = 120.0
TORCH_MISSING = (
    "dtypelint verify needs PyTorch, which is not installed; "
    "install the `verify` extra: pip install 'dtypelint[verify]'"
)


class VerifyUsageError(click.ClickException):
    """One line on stderr and exit 2, the CLI's convention for bad usage and environments."""

    exit_code = EXIT_ERROR

    def format_message(self) -> str:
        return f"dtypelint verify: {self.message}"


class Progress:
    """`[2/5] examples.py:example_x: patched` on one rewritten stderr line, on terminals only."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.width = 0

    def __call__(self, index: int, total: int, example: str, stage: str) -> None:
        if not self.enabled:
            return
        text = f"[{index}/{total}] {example}: {stage}"
        sys.stderr.write("\r" + text.ljust(self.width))
        sys.stderr.flush()
        self.width = max(self.width, len(text))

    def clear(self) -> None:
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def _setting(value: object, config: Config, key: str, default: object) -> object:
    """Command line over `[tool.dtypelint.verify]` over the built-in default."""
    if value is not None:
        return value
    return config.verify.get(key, default)


@click.command("verify")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--examples",
    "example_files",
    multiple=True,
    type=click.Path(),
    metavar="FILE",
    help="File with example functions (repeat for several). "
    "Default: [tool.dtypelint.verify] examples, else the PATH files.",
)
@click.option("--device", type=click.Choice(VERIFY_DEVICES), default=None, help="Default: auto.")
@click.option("--dtype", type=click.Choice(VERIFY_DTYPES), default=None, help="Default: auto.")
@click.option(
    "--unsafe-fixes/--no-unsafe-fixes", default=None, help="Also apply unsafe fixes to the copy."
)
@click.option("--output-format", type=click.Choice(("text", "json")), default="text")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    metavar="S",
    help="Seconds each example may take in each step: its import, the float32 reference, the "
    f"run itself (default {DEFAULT_TIMEOUT_S:g}; starting Python and torch is not counted). "
    "An example that overruns is a timeout; the others still run.",
)
@click.option("--compile", "with_compile", is_flag=True, help="Also run under torch.compile.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    help="Worker processes per side (default 1); the examples are shared among them.",
)
@click.pass_context
def verify(
    ctx: click.Context,
    paths: tuple[str, ...],
    example_files: tuple[str, ...],
    device: str | None,
    dtype: str | None,
    unsafe_fixes: bool | None,
    output_format: str,
    timeout: float | None,
    with_compile: bool,
    config_file: str | None,
    jobs: int,
) -> None:
    """Prove the fixes: run the examples on the original code and on a patched copy.

    PATHs (default `.`) are the sources whose fixes are verified; your files are never written.
    One worker process per side (float32 reference, original, patched) runs every example, each
    isolated from the others, recording every torch call that mixes floating dtypes (autocast's
    own casts excepted); outputs are compared with the all-float32 run of the original code.
    """
    from dtypelint.verify import harness, report

    if not harness.torch_installed():
        raise VerifyUsageError(TORCH_MISSING)
    try:
        config = load_config(Path(config_file) if config_file else None, config_start(paths))
    except ConfigError as exc:
        raise VerifyUsageError(str(exc)) from None
    unsafe = unsafe_fixes if unsafe_fixes is not None else config.unsafe_fixes
    options = harness.VerifyOptions(
        paths=paths,
        example_files=example_files,
        device=str(_setting(device, config, "device", "auto")),
        dtype=str(_setting(dtype, config, "dtype", "auto")),
        unsafe=unsafe,
        timeout=float(_setting(timeout, config, "timeout", DEFAULT_TIMEOUT_S)),  # type: ignore[arg-type]
        compile=with_compile,
        jobs=jobs,
    )
    progress = Progress(sys.stderr.isatty())
    try:
        result = harness.run_verify(options, config, progress)
    except harness.VerifyError as exc:
        raise VerifyUsageError(str(exc)) from None
    finally:
        progress.clear()
    text = report.render_json(result) if output_format == "json" else report.render_text(result)
    click.echo(text, nl=output_format == "json")
    # ctx.exit, not a return value: the code must survive both cli.main(standalone_mode=False)
    # and a standalone call of this command.
    ctx.exit(report.exit_code(result))
