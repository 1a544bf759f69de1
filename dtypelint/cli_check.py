"""`dtypelint check`: read the settings, check (or fix) the files, report, pick the exit code.

Options behave as ruff's do (see README, "For ruff users"). Exit codes: 0 nothing left to report,
1 findings remain (or, with --exit-non-zero-on-fix, something was fixed; with --diff, there is a
diff), 2 bad usage, bad configuration, something that could not be written, or an internal error.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from dtypelint.config import Config, config_start, load_config, parse_inline_setting
from dtypelint.engine import (
    FileOutcome,
    discover_named_files,
    lint_paths,
)
from dtypelint.progress import Progress
from dtypelint.streams import StreamError, describe_os_error, write_stdout_bytes

if TYPE_CHECKING:
    from dtypelint.cache import Cache

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
STDIN = "-"
TEXT_FORMATS = ("full", "text", "concise")


@dataclass(frozen=True)
class CheckOptions:
    """Everything `check` was given, as click parsed it (names are the options' names)."""

    paths: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    unfixable: tuple[str, ...] = ()
    extend_unfixable: tuple[str, ...] = ()
    ignore_noqa: bool = False
    baseline_file: str | None = None
    since: str | None = None
    fix: bool | None = None
    unsafe_fixes: bool | None = None
    fix_only: bool | None = None
    diff: bool = False
    add_noqa: bool = False
    exit_non_zero_on_fix: bool = False
    output_format: str | None = None
    output_file: str | None = None
    show_fixes: bool | None = None
    statistics: bool = False
    show_files: bool = False
    show_settings: bool = False
    write_baseline: str | None = None
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    force_exclude: bool | None = None
    no_default_path: bool = False
    stdin_filename: str | None = None
    jobs: int | None = None
    no_cache: bool = False
    cache_dir: str | None = None
    watch: bool = False
    exit_zero: bool = False
    verbose: bool = False
    quiet: bool = False
    silent: bool = False
    config_options: tuple[str, ...] = ()
    isolated: bool = False

    @classmethod
    def from_click(cls, values: dict[str, Any]) -> CheckOptions:
        known = {field.name for field in fields(cls)}
        return cls(**{key: value for key, value in values.items() if key in known})

    @property
    def reading_stdin(self) -> bool:
        return STDIN in self.paths or (self.stdin_filename is not None and not self.paths)

    @property
    def fix_only_mode(self) -> bool:
        """The findings are not shown: --fix-only, or --diff (which implies it)."""
        return bool(self.fix_only) or self.diff

    @property
    def fix_in_place(self) -> bool:
        return bool(self.fix or self.fix_only) and not self.diff


class Log:
    """ruff's log levels: -v adds debug lines on stderr, -q drops the summary, -s everything."""

    def __init__(self, options: CheckOptions) -> None:
        self.verbose = options.verbose and not (options.quiet or options.silent)
        self.quiet = options.quiet or options.silent
        self.silent = options.silent

    def debug(self, message: str) -> None:
        if self.verbose:
            from datetime import datetime

            stamp = datetime.now().strftime("[%Y-%m-%d][%H:%M:%S]")
            click.echo(f"{stamp}[dtypelint][DEBUG] {message}", err=True)

    def warning(self, message: str) -> None:
        if not self.quiet:
            click.echo(f"warning: {message}", err=True)

    @staticmethod
    def error(message: str) -> None:  # errors are always shown: they decide the exit code
        click.echo(f"error: {message}", err=True)


def split_codes(values: Sequence[str]) -> list[str]:
    """`--select A,B --select C` -> [A, B, C]."""
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


# ---------------------------------------------------------------------------------------------
# Settings


def _config_sources(values: Sequence[str]) -> tuple[Path | None, dict[str, Any]]:
    """`--config` values: at most one settings file, any number of `KEY = VALUE` settings."""
    files: list[Path] = []
    inline: dict[str, Any] = {}
    for value in values:
        if "=" in value and not Path(value).is_file():
            inline.update(parse_inline_setting(value))
        else:
            files.append(Path(value))
    if len(files) > 1:
        raise click.UsageError("--config names more than one settings file")
    return (files[0] if files else None), inline


def resolve_config(options: CheckOptions, log: Log) -> Config:
    """The file's settings (or none with --isolated), `--config` settings, then the options."""
    config_file, inline = _config_sources(options.config_options)
    if options.isolated and config_file is not None:
        raise click.UsageError(
            f"--config {config_file} cannot be combined with --isolated (which reads no file)"
        )
    config = load_config(
        config_file, config_start(options.paths), isolated=options.isolated, inline=inline
    )
    if options.isolated:
        log.debug("Isolated mode, not reading any configuration file")
    elif config.config_path is not None:
        log.debug(f"Using settings from {config.config_path}")
    else:
        log.debug("No settings file found; using the defaults")
    if options.select and not split_codes(options.select):
        raise click.UsageError(
            '--select "" selects no rule: name codes, prefixes or rule names '
            "(`--select DTL001,DTL002`, `--select ALL`); to check nothing, do not run dtypelint"
        )
    resolved = config.with_overrides(
        select=split_codes(options.select) if options.select else None,
        ignore=split_codes(options.ignore),
        extend_select=split_codes(options.extend_select),
        unsafe_fixes=options.unsafe_fixes,
        output_format=options.output_format,
        exclude=split_codes(options.exclude) if options.exclude else None,
        extend_exclude=split_codes(options.extend_exclude),
        unfixable=split_codes(options.unfixable) if options.unfixable else None,
        extend_unfixable=split_codes(options.extend_unfixable),
        ignore_noqa=options.ignore_noqa,
    )
    _warn_if_no_rule(resolved, log)
    return resolved


def _warn_if_no_rule(config: Config, log: Log) -> None:
    """A selection that leaves no rule on is said out loud, never a silent pass."""
    from dtypelint.rules import ALL_RULES

    if not {rule.code for rule in ALL_RULES} & config.selected_codes():
        log.warning(
            "no rule is selected (`select`, `ignore` and `extend-select` leave none): only files "
            "that cannot be read or parsed are reported"
        )


# ---------------------------------------------------------------------------------------------
# Checking


def refuse_contradictions(options: CheckOptions) -> None:
    """Refuse options that contradict each other, before any work is done."""
    pairs = [
        ("--baseline", options.baseline_file, "--write-baseline", options.write_baseline),
        ("--add-noqa", options.add_noqa, "--fix", options.fix or options.fix_only),
        ("--add-noqa", options.add_noqa, "--diff", options.diff),
        ("--add-noqa", options.add_noqa, "--write-baseline", options.write_baseline),
        ("--write-baseline", options.write_baseline, "--diff", options.diff),
        ("--exit-zero", options.exit_zero, "--exit-non-zero-on-fix", options.exit_non_zero_on_fix),
        ("--watch", options.watch, "--output-file", options.output_file),
        ("--watch", options.watch, "--diff", options.diff),
        ("--watch", options.watch, "--add-noqa", options.add_noqa),
        ("--watch", options.watch, "--write-baseline", options.write_baseline),
        ("--watch", options.watch, "`-` (standard input)", options.reading_stdin),
        ("--show-files", options.show_files, "--show-settings", options.show_settings),
    ]
    for first, first_given, second, second_given in pairs:
        if first_given and second_given:
            raise click.UsageError(f"{first} cannot be combined with {second}")
    if options.reading_stdin and options.paths not in ((), (STDIN,)):
        raise click.UsageError("`-` (read from standard input) cannot be mixed with other paths")
    if options.reading_stdin and options.add_noqa:
        raise click.UsageError("--add-noqa edits files; it cannot read from standard input")


def targets(options: CheckOptions) -> list[str]:
    return list(options.paths) or ([] if options.no_default_path else ["."])


def discover(options: CheckOptions, config: Config) -> list[tuple[Path, str]]:
    return discover_named_files(targets(options), config, force_exclude=bool(options.force_exclude))


def lint(options: CheckOptions, config: Config, log: Log) -> tuple[list[FileOutcome], dict]:
    """Check (fix, diff) the files or standard input; returns the outcomes and shown -> path."""
    fix, diff = options.fix_in_place, options.diff
    if options.reading_stdin:
        from dtypelint.cli_stdin import check_stdin

        return [check_stdin(options.stdin_filename or STDIN, config, fix, diff)], {}
    started = time.perf_counter()
    named = discover(options, config)
    log.debug(f"Identified {len(named)} files to check in {_ms(started)}")
    if not named and targets(options):
        log.warning("No Python files found under the given path(s)")  # as ruff warns
    for path, _ in named:
        log.debug(f"Checking: {path}")
    started = time.perf_counter()
    cache = open_cache(options, config)
    progress = Progress.for_terminal(quiet=log.quiet)
    try:
        outcomes = lint_paths(
            [path for path, _ in named],
            config,
            options.jobs,
            fix=fix,
            diff=diff,
            filenames=dict(named),
            cache=cache,
            progress=progress,
        )
    finally:
        progress.finish()
    log.debug(f"Checked {len(named)} files in {_ms(started)}")
    if cache is not None:
        log.debug(f"Cache {cache.folder}: {cache.hits} results reused")
    else:
        log.debug("No cache (--no-cache or DTYPELINT_NO_CACHE)")
    return outcomes, {shown: path for path, shown in named}


def open_cache(options: CheckOptions, config: Config) -> Cache | None:
    """The content cache for this run (cache.py), or None with --no-cache / DTYPELINT_NO_CACHE."""
    from dtypelint import cache, engine

    if options.no_cache or cache.env_disables_cache():
        return None
    folder = cache.cache_folder(config, options.cache_dir)
    return cache.Cache.for_run(folder, config, engine.default_rules())


def _ms(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:.1f}ms"


def filter_findings(options: CheckOptions, outcomes: list[FileOutcome]) -> None:
    """--since and --baseline: keep only what they let through."""
    if options.since is None and options.baseline_file is None:
        return
    from dtypelint import gate

    if options.since is not None:
        names = [options.stdin_filename or STDIN] if options.reading_stdin else targets(options)
        gate.keep_changed(outcomes, gate.changed_lines(options.since, names or ["."]))
    if options.baseline_file is not None:
        gate.hide_baselined(outcomes, gate.load_baseline(Path(options.baseline_file)))


def run_check(options: CheckOptions) -> int:
    refuse_contradictions(options)
    log = Log(options)
    if options.watch:
        from dtypelint.cli_watch import run_watch

        return run_watch(options, log)
    config = resolve_config(options, log)
    if options.show_settings or options.show_files:
        from dtypelint.cli_show import show_files, show_settings

        named = discover(options, config) if not options.reading_stdin else []
        return (show_settings if options.show_settings else show_files)(options, config, named)
    if options.baseline_file is not None:  # a bad baseline stops the run before any work
        from dtypelint import gate

        gate.load_baseline(Path(options.baseline_file))
    outcomes, paths = lint(options, config, log)
    filter_findings(options, outcomes)
    if options.write_baseline is not None:
        return _write_baseline(Path(options.write_baseline), outcomes, log)
    if options.add_noqa:
        return _add_noqa(outcomes, paths, log)
    report = make_report(options, config, outcomes)
    with report_stream(options) as stream:
        report = emit(options, config, report, stream)
    print_problems(report.outcomes, log)
    return exit_code(options, report)


def make_report(options: CheckOptions, config: Config, outcomes: list[FileOutcome]) -> Any:
    from dtypelint.reporters import RunReport

    return RunReport(
        outcomes,
        fix=options.fix_in_place,
        unsafe=config.unsafe_fixes,
        show_fixes=bool(options.show_fixes),
        unsafe_hint=not config.unsafe_fixes_set,
        quiet=options.quiet or options.silent,
    )


@contextlib.contextmanager
def report_stream(options: CheckOptions) -> Iterator[TextIO]:
    """-o FILE, else stdout; stderr when stdout carries fixed code (`-` with --fix)."""
    if options.output_file is not None:
        path = Path(options.output_file)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            stream = path.open("w", encoding="utf-8", errors="backslashreplace")
        except OSError as exc:
            raise click.UsageError(
                f"--output-file {path}: cannot write: {exc.strerror or exc}"
            ) from None
        try:
            with stream:
                yield stream
        except OSError as exc:  # a full disk, /dev/full
            raise StreamError(
                f"--output-file {path}: cannot write: {describe_os_error(exc)}"
            ) from None
        return
    code_on_stdout = options.reading_stdin and (options.fix_in_place or options.diff)
    stream = sys.stderr if code_on_stdout else sys.stdout
    yield stream
    stream.flush()


def emit(options: CheckOptions, config: Config, report: Any, stream: TextIO) -> Any:
    """Write the diffs or the fixed code (standard input), then the report.

    Returns the report as written: a file whose findings could not be rendered is replaced by
    its DTL901 finding (see `cli_report`), which the exit code and the error lines then count.
    """
    from dtypelint.cli_report import write_isolated

    if options.diff:
        for outcome in report.outcomes:
            if outcome.diff:  # like ruff: each file's diff, then a blank line
                sys.stdout.write(outcome.diff + "\n")
        sys.stdout.flush()
    elif options.reading_stdin and options.fix_in_place:
        output = getattr(report.outcomes[0], "output", None)
        if output:  # the input's bytes, or the fixed code in the input's encoding
            write_stdout_bytes(output)
    if options.silent:
        return report
    return write_isolated(
        lambda shown, out: render_report(options, config, shown, out), report, stream
    )


def render_report(options: CheckOptions, config: Config, report: Any, out: TextIO) -> None:
    """The report in the chosen format (what `emit` writes after the code or diffs)."""
    from dtypelint import reporters

    text_format = config.output_format in TEXT_FORMATS
    if options.diff:
        if text_format:
            reporters.report_fix_only(report, out, applied=False)
        return
    if options.fix_only_mode:
        if text_format:
            reporters.report_fix_only(report, out)
        return
    if options.statistics:
        json_format = config.output_format == "json"
        statistics = (
            reporters.report_statistics_json if json_format else reporters.report_statistics
        )
        statistics(report, out)
        return
    reporters.REPORTERS[config.output_format](report, out)


def exit_code(options: CheckOptions, report: Any) -> int:
    """ruff's rules, and 2 when something could not be checked or written."""
    if report.has_errors:
        return EXIT_ERROR
    if options.exit_zero:
        return EXIT_CLEAN
    if options.diff:  # --diff writes nothing: exit 1 when there is something to fix
        return EXIT_FINDINGS if report.fixed else EXIT_CLEAN
    fixed_fails = options.exit_non_zero_on_fix and report.fixed > 0
    if options.fix_only_mode:
        return EXIT_FINDINGS if fixed_fails else EXIT_CLEAN
    return EXIT_FINDINGS if report.remaining or fixed_fails else EXIT_CLEAN


def print_problems(outcomes: Sequence[FileOutcome], log: Log) -> None:
    for outcome in outcomes:
        for warning in outcome.warnings:
            log.warning(warning)
        for error in outcome.errors:
            log.error(error)


def _write_baseline(path: Path, outcomes: Sequence[FileOutcome], log: Log) -> int:
    from dtypelint import gate

    findings = [(o.lines, d) for o in outcomes for d in o.diagnostics]
    count = gate.write_baseline(path, findings)
    if not log.quiet:
        click.echo(
            f"Wrote {count} finding{'s' if count != 1 else ''} to the baseline {path}.", err=True
        )
    print_problems(outcomes, log)
    return EXIT_ERROR if any(outcome.errors for outcome in outcomes) else EXIT_CLEAN


def _add_noqa(outcomes: Sequence[FileOutcome], paths: dict[str, Path], log: Log) -> int:
    from dtypelint import gate
    from dtypelint.rules import ENGINE_CODES, INTERNAL_ERROR_CODE, IO_ERROR_CODE

    added, failed = 0, False
    for outcome in outcomes:
        # DTL000 and DTL9xx take no noqa comment; a file not read or not checked is an error.
        for diagnostic in outcome.diagnostics:
            if diagnostic.code in (IO_ERROR_CODE, INTERNAL_ERROR_CODE) and not outcome.errors:
                log.error(f"{outcome.filename}: {diagnostic.message}")
                failed = True
        silenceable = [d for d in outcome.diagnostics if d.code not in ENGINE_CODES]
        if not silenceable:
            continue
        try:
            result = gate.add_noqa(
                paths.get(outcome.filename, Path(outcome.filename)),
                silenceable,
                outcome.filename,
            )
        except gate.GateError as exc:
            log.error(str(exc))
            failed = True
            continue
        added += result.added
        for warning in result.warnings:
            log.warning(warning)
    if not log.quiet:
        click.echo(f"Added {added} noqa directive{'s' if added != 1 else ''}.", err=True)
    print_problems(outcomes, log)
    return EXIT_ERROR if failed or any(outcome.errors for outcome in outcomes) else EXIT_CLEAN
