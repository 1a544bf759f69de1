"""The `dtypelint` command. `check` is the default: `dtypelint src/` == `dtypelint check src/`.

Exit codes: 0 nothing left to report, 1 findings remain (or, with --exit-non-zero-on-fix,
something was fixed), 2 bad usage, bad configuration or an internal error (one line, no trace).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import click

from dtypelint import __version__, gate
from dtypelint.config import OUTPUT_FORMATS, Config, ConfigError, config_start, load_config
from dtypelint.engine import (
    DecodedSource,
    FileOutcome,
    RunOptions,
    decode_source,
    discover_named_files,
    lint_paths,
    process_decoded,
)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
STDIN = "-"


class DefaultCommandGroup(click.Group):
    """A group that runs `check` when the first argument names no subcommand.

    `verify` is registered lazily: it pulls in the runtime harness (and torch), which plain
    checking must never import.
    """

    lazy_commands: ClassVar[dict[str, tuple[str, str]]] = {
        "verify": ("dtypelint.verify.command", "verify"),
        "trace": ("dtypelint.trace.command", "trace"),
    }
    lazy_help: ClassVar[dict[str, str]] = {
        "verify": "Run examples before and after the fixes to prove they help.",
        "trace": "Run any command and report its mixed-dtype torch calls.",
    }

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        group_options = {"--help", "-h", "--version"}
        if not args or (args[0] not in self.list_commands(ctx) and args[0] not in group_options):
            args = ["check", *args]
        return super().parse_args(ctx, args)

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
            hint = " (install the `verify` extra: pip install 'dtypelint[verify]')"
            raise click.UsageError(
                f"`dtypelint {name}` is not available: {exc}"
                + (hint if missing.startswith("torch") else "")
            ) from None
        return getattr(module, attribute)  # type: ignore[no-any-return]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Listing help must not import the lazy commands (verify would import torch).
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy_commands:
                rows.append((name, self.lazy_help[name]))
            else:
                command = super().get_command(ctx, name)
                if command is not None and not command.hidden:
                    rows.append((name, command.get_short_help_str(limit=60)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=DefaultCommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, "--version", prog_name="dtypelint", message="%(prog)s %(version)s"
)
def cli() -> None:
    """Find and fix dtype hazards (bf16/fp16 mismatches) in PyTorch code.

    `check` is the default command: `dtypelint src/` is `dtypelint check src/`.
    """


def _split_codes(values: Sequence[str]) -> list[str]:
    """`--select A,B --select C` -> [A, B, C]."""
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


@cli.command("check")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--fix", is_flag=True, help="Apply safe fixes in place.")
@click.option(
    "--unsafe-fixes/--no-unsafe-fixes",
    default=None,
    help="Also apply (and count as fixable) unsafe fixes.",
)
@click.option("--diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option("--show-fixes", is_flag=True, help="List what --fix fixed.")
@click.option("--select", multiple=True, metavar="CODES", help="Rules to check (replaces).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Rules not to check.")
@click.option("--extend-select", multiple=True, metavar="CODES", help="Rules to add.")
@click.option("--output-format", type=click.Choice(OUTPUT_FORMATS), default=None)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when something was fixed.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None)
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Default: all cores.")
@click.option("--stdin-filename", default=None, help="The name to report for code read from -.")
@click.option("--statistics", is_flag=True, help="Count findings per code instead of listing them.")
@click.option(
    "--baseline",
    "baseline_file",
    metavar="FILE",
    default=None,
    help="Report only findings not recorded in FILE (see --write-baseline).",
)
@click.option(
    "--write-baseline",
    metavar="FILE",
    default=None,
    help="Record the current findings in FILE and exit 0.",
)
@click.option(
    "--since", metavar="REF", default=None, help="Report only findings on lines changed since REF."
)
@click.option("--add-noqa", is_flag=True, help="Silence every finding with a `# noqa` comment.")
@click.option(
    "--force-exclude",
    is_flag=True,
    help="Apply `exclude` to files named on the command line too (for hooks).",
)
@click.option(
    "--no-default-path",
    is_flag=True,
    help="With no PATH, check nothing (instead of `.`); for hooks that pass the files.",
)
def check(
    paths: tuple[str, ...],
    fix: bool,
    unsafe_fixes: bool | None,
    diff: bool,
    show_fixes: bool,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    extend_select: tuple[str, ...],
    output_format: str | None,
    exit_zero: bool,
    exit_non_zero_on_fix: bool,
    config_file: str | None,
    jobs: int | None,
    stdin_filename: str | None,
    statistics: bool,
    baseline_file: str | None,
    write_baseline: str | None,
    since: str | None,
    add_noqa: bool,
    force_exclude: bool,
    no_default_path: bool,
) -> int:
    """Check PATHs (files or folders; default `.`) for dtype hazards."""
    _check_combinations(
        fix=fix,
        diff=diff,
        baseline=baseline_file is not None,
        write_baseline=write_baseline is not None,
        add_noqa=add_noqa,
    )
    config = load_config(Path(config_file) if config_file else None, config_start(paths))
    config = config.with_overrides(
        select=_split_codes(select) if select else None,
        ignore=_split_codes(ignore),
        extend_select=_split_codes(extend_select),
        unsafe_fixes=unsafe_fixes,
        output_format=output_format,
    )
    reporter = _reporter(config.output_format)
    reading_stdin = STDIN in paths or (stdin_filename is not None and not paths)
    if reading_stdin and paths not in ((), (STDIN,)):
        raise click.UsageError("`-` (read from standard input) cannot be mixed with other paths")
    if reading_stdin and add_noqa:
        raise click.UsageError("--add-noqa edits files; it cannot read from standard input")
    # Read before linting: a bad baseline should stop the run before any work (or fixes).
    baseline = gate.load_baseline(Path(baseline_file)) if baseline_file else None
    fix_in_place = fix and not diff
    named: list[tuple[Path, str]] = []
    if reading_stdin:
        outcomes = [_check_stdin(stdin_filename or STDIN, config, fix_in_place, diff)]
    else:
        targets = list(paths) or ([] if no_default_path else ["."])
        named = discover_named_files(targets, config, force_exclude=force_exclude)
        outcomes = lint_paths(
            [path for path, _ in named],
            config,
            jobs,
            fix=fix_in_place,
            diff=diff,
            filenames=dict(named),
        )
    if since is not None:
        changed_paths = [stdin_filename or STDIN] if reading_stdin else list(paths) or ["."]
        gate.keep_changed(outcomes, gate.changed_lines(since, changed_paths))
    if baseline is not None:
        gate.hide_baselined(outcomes, baseline)
    if write_baseline is not None:
        return _write_baseline(Path(write_baseline), outcomes)
    if add_noqa:
        return _add_noqa(outcomes, {shown: path for path, shown in named})

    from dtypelint.reporters import RunReport

    report = RunReport(
        outcomes, fix=fix_in_place, unsafe=config.unsafe_fixes, show_fixes=show_fixes
    )
    # With fixed code going to stdout, everything else goes to stderr.
    report_stream = sys.stderr if reading_stdin and (fix_in_place or diff) else sys.stdout
    if diff:
        _print_diffs(report)
    else:
        if reading_stdin and fix_in_place and outcomes[0].fixed_source is not None:
            sys.stdout.write(outcomes[0].fixed_source)
            sys.stdout.flush()
        if statistics:
            reporter = _statistics_reporter(config.output_format)
        reporter(report, report_stream)
    report_stream.flush()
    _print_problems(outcomes)
    return _exit_code(report, outcomes, diff, exit_zero, exit_non_zero_on_fix)


def _reporter(output_format: str) -> Any:
    from dtypelint.reporters import REPORTERS

    if output_format not in REPORTERS:
        raise click.UsageError(
            f"output format `{output_format}` is not available yet; "
            f"use one of {', '.join(REPORTERS)}"
        )
    return REPORTERS[output_format]


def _statistics_reporter(output_format: str) -> Any:
    from dtypelint.reporters import report_statistics, report_statistics_json

    return report_statistics_json if output_format == "json" else report_statistics


def _check_combinations(
    *, fix: bool, diff: bool, baseline: bool, write_baseline: bool, add_noqa: bool
) -> None:
    """Refuse options that contradict each other, before any work is done."""
    pairs = [
        ("--baseline", baseline, "--write-baseline", write_baseline),
        ("--add-noqa", add_noqa, "--fix", fix),
        ("--add-noqa", add_noqa, "--diff", diff),
        ("--add-noqa", add_noqa, "--write-baseline", write_baseline),
        ("--write-baseline", write_baseline, "--diff", diff),
    ]
    for first, first_given, second, second_given in pairs:
        if first_given and second_given:
            raise click.UsageError(f"{first} cannot be combined with {second}")


def _write_baseline(path: Path, outcomes: Sequence[FileOutcome]) -> int:
    findings = [(o.lines, d) for o in outcomes for d in o.diagnostics]
    count = gate.write_baseline(path, findings)
    click.echo(
        f"Wrote {count} finding{'s' if count != 1 else ''} to the baseline {path}.", err=True
    )
    _print_problems(outcomes)
    return EXIT_ERROR if any(outcome.errors for outcome in outcomes) else EXIT_CLEAN


def _add_noqa(outcomes: Sequence[FileOutcome], paths: dict[str, Path]) -> int:
    added, failed = 0, False
    for outcome in outcomes:
        if not outcome.diagnostics:
            continue
        try:
            result = gate.add_noqa(
                paths.get(outcome.filename, Path(outcome.filename)),
                outcome.diagnostics,
                outcome.filename,
            )
        except gate.GateError as exc:
            click.echo(f"error: {exc}", err=True)
            failed = True
            continue
        added += result.added
        for warning in result.warnings:
            click.echo(f"warning: {warning}", err=True)
    click.echo(f"Added {added} noqa directive{'s' if added != 1 else ''}.", err=True)
    _print_problems(outcomes)
    return EXIT_ERROR if failed or any(outcome.errors for outcome in outcomes) else EXIT_CLEAN


def _check_stdin(filename: str, config: Config, fix: bool, diff: bool) -> FileOutcome:
    data = sys.stdin.buffer.read()
    decoded = decode_source(data, filename)
    outcome = process_decoded(
        decoded, filename, config, RunOptions(fix=fix, diff=diff, unsafe=config.unsafe_fixes)
    )
    if fix and outcome.fixed_source is None and isinstance(decoded, DecodedSource):
        outcome.fixed_source = decoded.text  # always echo the code back, fixed or not
    if fix and not isinstance(decoded, DecodedSource):
        outcome.fixed_source = data.decode("utf-8", "surrogateescape")
    return outcome


def _print_diffs(report: Any) -> None:
    for outcome in report.outcomes:
        if outcome.diff:
            sys.stdout.write(outcome.diff)
    sys.stdout.flush()
    would_fix = sum(len(outcome.fixed) for outcome in report.outcomes)
    message = f"Would fix {would_fix} error{'s' if would_fix != 1 else ''}."
    click.echo(message if would_fix else "No errors would be fixed.", err=True)


def _print_problems(outcomes: Sequence[FileOutcome]) -> None:
    for outcome in outcomes:
        for warning in outcome.warnings:
            click.echo(f"warning: {warning}", err=True)
        for error in outcome.errors:
            click.echo(f"error: {error}", err=True)


def _exit_code(
    report: Any,
    outcomes: Sequence[FileOutcome],
    diff: bool,
    exit_zero: bool,
    exit_non_zero_on_fix: bool,
) -> int:
    if any(outcome.errors for outcome in outcomes):
        return EXIT_ERROR
    if exit_non_zero_on_fix and report.fixed:
        return EXIT_FINDINGS
    if exit_zero:
        return EXIT_CLEAN
    # --diff writes nothing: what it would fix is still in the files.
    left = report.remaining + (report.fixed if diff else 0)
    return EXIT_FINDINGS if left else EXIT_CLEAN


@cli.command("rule")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print every rule's page.")
def rule(code: str | None, show_all: bool) -> int:
    """Print the page of rule CODE (a code like DTL001 or a name like factory-without-dtype)."""
    from dtypelint import docs

    if show_all == (code is not None):
        raise click.UsageError("give one rule CODE, or --all")
    codes = docs.page_codes() if show_all else [_resolve_rule(code or "")]
    pages = []
    for each in codes:
        page = docs.rule_page(each)
        if page is None:
            raise click.UsageError(f"no page for rule {each}")
        pages.append(page.rstrip("\n") + "\n")
    click.echo("\n".join(pages), nl=False)
    return EXIT_CLEAN


def _resolve_rule(code_or_name: str) -> str:
    from dtypelint.config import _did_you_mean, known_rule_names

    names = known_rule_names()
    if code_or_name.upper() in names:
        return code_or_name.upper()
    by_name = {name: code for code, name in names.items()}
    if code_or_name in by_name:
        return by_name[code_or_name]
    suggestion = _did_you_mean(code_or_name, [*names, *by_name])
    raise click.UsageError(f"unknown rule `{code_or_name}`{suggestion}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code (the console script passes it to sys.exit)."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        result = cli.main(args=args, prog_name="dtypelint", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("error: aborted", err=True)
        return EXIT_ERROR
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        return EXIT_ERROR
    except (ConfigError, gate.GateError) as exc:
        click.echo(f"error: {exc}", err=True)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `dtypelint ... | head`: the reader left; nothing more to say
        sys.stderr.close()
        return EXIT_FINDINGS
    except Exception as exc:  # an internal error: one line, no traceback
        click.echo(f"error: internal error: {type(exc).__name__}: {exc}", err=True)
        return EXIT_ERROR
    return result if isinstance(result, int) else EXIT_CLEAN
