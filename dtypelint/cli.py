"""The `dtypelint` command. `check` is the default: `dtypelint src/` == `dtypelint check src/`.

Exit codes: 0 nothing left to report, 1 findings remain (or, with --exit-non-zero-on-fix,
something was fixed), 2 bad usage, bad configuration or an internal error (one line, no trace).
Commands and options are ruff's where ruff has the same thing (see README, "For ruff users").
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from collections.abc import Sequence
from typing import Any, ClassVar

import click

import dtypelint.cpuload  # noqa: F401 - notes how busy the machine is as dtypelint starts
from dtypelint import __version__, streams
from dtypelint.cli_check import CheckOptions, run_check
from dtypelint.cli_commands import config, help_command, rule, version
from dtypelint.cli_options import (
    CHECK_OPTIONS,
    GLOBAL,
    GLOBAL_OPTIONS,
    LOG_OPTIONS,
    PATHS_HELP,
    GroupedCommand,
    apply,
    option_sections,
    write_sections,
)
from dtypelint.config import ConfigError
from dtypelint.interrupts import (
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    exit_code_for,
    handling_signals,
)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
HELP_OPTIONS = ("-h", "--help")
VERSION_OPTIONS = ("-V", "--version")
#: What a mistyped command looks like (a path would have a `/` or a `.`).
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
TORCH_HINT = (
    " (install PyTorch: `pip install torch`, or the CPU-only build: "
    "`pip install torch --index-url https://download.pytorch.org/whl/cpu`)"
)


def _value_options(command: click.Command) -> set[str]:
    """The option names of `command` that take a value (`--select CODES`, `-o FILE`)."""
    names: set[str] = set()
    for param in command.params:
        if isinstance(param, click.Option) and not param.is_flag and param.nargs != 0:
            names.update(param.opts)
    return names


def _first_positional(args: Sequence[str], value_options: set[str]) -> int:
    """The index of the first argument that is neither an option nor an option's value."""
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            return index + 1
        if not arg.startswith("-") or arg == "-":
            return index
        index += 2 if arg in value_options else 1
    return index


def unknown_word_message(word: str, commands: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(word, list(commands), n=1, cutoff=0.6)
    if close:
        return f"`{word}`: unknown command or path, did you mean `{close[0]}`?"
    # No command is close: the default command, on a path that must exist.
    listed = ", ".join(f"`{command}`" for command in commands)
    return (
        f"`{word}`: unknown command or path, did you mean `check`? (no file or folder `{word}` "
        f"exists; commands: {listed})"
    )


class DefaultCommandGroup(click.Group):
    """A group that runs `check` when the first argument names no command.

    `verify` is registered lazily: it pulls in the runtime harness (and torch), which plain
    checking must never import.
    """

    lazy_commands: ClassVar[dict[str, tuple[str, str]]] = {
        "verify": ("dtypelint.verify.command", "verify"),
        "trace": ("dtypelint.trace.command", "trace"),
    }
    lazy_help: ClassVar[dict[str, str]] = {
        "verify": "Prove the fixes at runtime, before and after (needs torch)",
        "trace": "Record a command's mixed-dtype torch calls (needs torch)",
    }

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self.route(ctx, list(args)))

    def route(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Put the command first: `-q check src` -> `check -q src`; no command -> `check`.

        Options may come before the command, as in ruff (`dtypelint --fix check src`).

        A first word that is neither a command nor an existing path is a mistake (`chek`,
        `verison`), not a path to report as missing.
        """
        if args and args[0] in (*HELP_OPTIONS, *VERSION_OPTIONS):
            return args
        index = _first_positional(args, _value_options(check))
        commands = self.list_commands(ctx)
        if index < len(args) and args[index] in commands:
            return [args[index], *args[:index], *args[index + 1 :]]
        word = args[index] if index < len(args) else ""
        if _WORD.fullmatch(word) and not os.path.lexists(word):
            raise click.UsageError(unknown_word_message(word, commands))
        return ["check", *args]

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.lazy_commands:
            return self._load_lazy(name)
        return super().get_command(ctx, name)

    def _load_lazy(self, name: str) -> click.Command:
        import importlib

        module_name, attribute = self.lazy_commands[name]
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            missing = getattr(exc, "name", "") or ""
            raise click.UsageError(
                f"`dtypelint {name}` is not available: {exc}"
                + (TORCH_HINT if missing.startswith("torch") else "")
            ) from None
        return getattr(module, attribute)  # type: ignore[no-any-return]

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage("dtypelint", "[OPTIONS] [PATH]...")
        formatter.write_usage("dtypelint", "COMMAND [ARGS]...", prefix="       ")

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(
                "Find and fix dtype hazards (bf16/fp16 mismatches) in PyTorch code. `check` is "
                "the default command: `dtypelint src/` is `dtypelint check src/`, and its "
                "options are listed below."
            )

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.format_commands(ctx, formatter)
        check_ctx = click.Context(check, info_name="check", parent=ctx)
        sections = option_sections(check, check_ctx)
        version_option = next(p for p in self.params if "--version" in getattr(p, "opts", ()))
        record = version_option.get_help_record(ctx)
        if record is not None:
            sections.setdefault(GLOBAL, []).append(record)
        write_sections(formatter, sections, check.arguments)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listing help must not import the lazy commands (verify would import torch).
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy_commands:
                rows.append((name, self.lazy_help[name]))
                continue
            command = super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.short_help or command.get_short_help_str(limit=200)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(
    cls=DefaultCommandGroup,
    context_settings={"help_option_names": list(HELP_OPTIONS)},
    help="Find and fix dtype hazards (bf16/fp16 mismatches) in PyTorch code.",
)
@click.version_option(
    __version__,
    *VERSION_OPTIONS,
    prog_name="dtypelint",
    message="%(prog)s %(version)s",
    help="Print the version",
)
def cli() -> None:
    """Find and fix dtype hazards (bf16/fp16 mismatches) in PyTorch code."""


def _check(**values: Any) -> int:
    """Check PATHs (files or folders; default `.`) for dtype hazards."""
    try:
        return run_check(CheckOptions.from_click(values))
    except KeyboardInterrupt as exc:  # Ctrl-C (ends --watch) 130, SIGTERM 143; no message
        return exit_code_for(exc)


check = cli.command(
    "check",
    cls=GroupedCommand,
    short_help="Check files or folders for dtype hazards (the default command)",
)(
    click.argument("paths", nargs=-1, type=click.Path(), metavar="[PATH]...")(
        apply([*CHECK_OPTIONS, *LOG_OPTIONS, *GLOBAL_OPTIONS], _check)
    )
)
check.arguments = [("[PATH]...", PATHS_HELP)]
for _command in (rule, config, version, help_command):
    cli.add_command(_command)


def _one_line(message: str) -> str:
    """`X: X needs Y` -> `X needs Y`: a prefix that the message repeats is said once."""
    head, separator, rest = message.partition(": ")
    if separator and rest.startswith(head + " "):
        return rest
    return " ".join(message.split())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (the console script passes it to sys.exit).

    SIGINT and SIGTERM stop the run cleanly (exit 130 and 143, see `dtypelint.interrupts`); a
    standard stream that is closed or full is one `error:` line and exit 2.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    streams.prepare()
    with handling_signals():
        code = _main(args)
        try:
            streams.flush_standard_streams()
        except OSError as exc:
            code = _stream_failed(exc, discard=argv is None)
    if (
        argv is None
        and code in (EXIT_INTERRUPTED, EXIT_TERMINATED)
        and threading.active_count() > 1
    ):
        # Interrupted from the command line: leave now, without waiting for a file's thread
        # still deep in a parse (its writes are already stopped) or for pool bookkeeping.
        with contextlib.suppress(Exception):
            streams.flush_standard_streams()
        os._exit(code)
    return code


def _stream_failed(exc: OSError, *, discard: bool) -> int:
    """Standard output could not be written (a full disk, a closed descriptor)."""
    if discard:
        streams.discard_standard_output()
    with contextlib.suppress(Exception):
        click.echo(
            f"error: cannot write to standard output: {streams.describe_os_error(exc)}", err=True
        )
    return EXIT_ERROR


def _main(args: list[str]) -> int:
    try:
        result = cli.main(args=args, prog_name="dtypelint", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort as exc:
        interrupt = exc.__context__
        if isinstance(interrupt, KeyboardInterrupt):  # click turns Ctrl-C into Abort
            return exit_code_for(interrupt)
        click.echo("error: aborted", err=True)
        return EXIT_ERROR
    except click.ClickException as exc:
        click.echo(f"error: {_one_line(exc.format_message())}", err=True)
        return EXIT_ERROR
    except ConfigError as exc:
        click.echo(f"error: {_one_line(str(exc))}", err=True)
        return EXIT_ERROR
    except KeyboardInterrupt as exc:
        return exit_code_for(exc)
    except BrokenPipeError:  # `dtypelint ... | head`: the reader left; nothing more to say
        sys.stderr.close()
        return EXIT_FINDINGS
    except streams.StreamError as exc:
        with contextlib.suppress(Exception):
            click.echo(f"error: {exc}", err=True)
        return EXIT_ERROR
    except Exception as exc:  # an internal error: one line, no traceback
        from dtypelint.gate import GateError

        if isinstance(exc, GateError):
            click.echo(f"error: {exc}", err=True)
            return EXIT_ERROR
        if streams.is_stream_error(exc):
            assert isinstance(exc, OSError)
            return _stream_failed(exc, discard=False)
        click.echo(f"error: internal error: {type(exc).__name__}: {exc}", err=True)
        return EXIT_ERROR
    return result if isinstance(result, int) else EXIT_CLEAN
