"""The options of `dtypelint check`, ruff's spelling, and help grouped the way ruff groups it.

Every option carries the help section it belongs to (`GroupedOption.group`); `GroupedCommand`
prints the sections in SECTIONS order. The top-level `dtypelint --help` prints the same
sections, since `check` is the default command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from dtypelint.config import OUTPUT_FORMATS

RULES = "Rule selection"
FIXES = "Fix behaviour"
OUTPUT = "Output"
FILES = "File selection"
MISC = "Miscellaneous"
LOG_LEVELS = "Log levels"
GLOBAL = "Global options"
SECTIONS = (RULES, FIXES, OUTPUT, FILES, MISC, LOG_LEVELS, GLOBAL)

PATHS_HELP = (
    "Files or folders to check (folders are walked for *.py and *.pyi), or `-` to read standard "
    "input [default: .]"
)

F = TypeVar("F", bound=Callable[..., Any])


class GroupedOption(click.Option):
    """An option that knows its help section."""

    def __init__(self, *args: Any, group: str = MISC, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group = group


def option_sections(command: click.Command, ctx: click.Context) -> dict[str, list[tuple[str, str]]]:
    """Help records (`--fix`, description) per section; `-h/--help` goes to the global ones."""
    sections: dict[str, list[tuple[str, str]]] = {}
    for param in command.get_params(ctx):
        if not isinstance(param, click.Option):
            continue  # arguments have their own section
        record = param.get_help_record(ctx)
        if record is not None:
            sections.setdefault(getattr(param, "group", GLOBAL), []).append(record)
    return sections


def write_sections(
    formatter: click.HelpFormatter,
    sections: dict[str, list[tuple[str, str]]],
    arguments: list[tuple[str, str]] | None = None,
) -> None:
    if arguments:
        with formatter.section("Arguments"):
            formatter.write_dl(arguments)
    for name in SECTIONS:
        if sections.get(name):
            with formatter.section(name):
                formatter.write_dl(sections[name])


class GroupedCommand(click.Command):
    """A command whose `--help` lists its options by section, as ruff's does."""

    arguments: list[tuple[str, str]] | None = None

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        write_sections(formatter, option_sections(self, ctx), self.arguments)


def _option(*decls: str, group: str, **kwargs: Any) -> Callable[[F], F]:
    return click.option(*decls, cls=GroupedOption, group=group, **kwargs)


#: (decorator) in the order they appear in `--help`.
CHECK_OPTIONS: list[Callable[[F], F]] = [
    # Rule selection
    _option(
        "--select",
        multiple=True,
        metavar="CODES",
        group=RULES,
        help="Comma-separated rule codes, code prefixes (`DTL00`) or rule names to check; "
        "replaces the configured selection (`ALL` selects every rule)",
    ),
    _option(
        "--ignore",
        multiple=True,
        metavar="CODES",
        group=RULES,
        help="Comma-separated rule codes, prefixes or names not to check",
    ),
    _option(
        "--extend-select",
        multiple=True,
        metavar="CODES",
        group=RULES,
        help="Like --select, but adds to the rules already selected",
    ),
    _option(
        "--unfixable",
        multiple=True,
        metavar="CODES",
        group=RULES,
        help="Rule codes, prefixes or names whose findings are never fixed (replaces `unfixable`)",
    ),
    _option(
        "--extend-unfixable",
        multiple=True,
        metavar="CODES",
        group=RULES,
        help="Like --unfixable, but adds to the codes already unfixable",
    ),
    _option(
        "--ignore-noqa",
        is_flag=True,
        group=RULES,
        help="Ignore every `# noqa` comment and `# dtypelint: noqa` file header",
    ),
    _option(
        "--baseline",
        "baseline_file",
        metavar="FILE",
        group=RULES,
        help="Report only findings not recorded in FILE (see --write-baseline)",
    ),
    _option(
        "--since",
        metavar="REF",
        group=RULES,
        help="Report only findings on lines changed since the git revision REF",
    ),
    # Fix behaviour
    _option(
        "--fix/--no-fix",
        default=None,
        group=FIXES,
        help="Apply the safe fixes in place. Use --no-fix to disable, or --unsafe-fixes to "
        "include unsafe fixes",
    ),
    _option(
        "--unsafe-fixes/--no-unsafe-fixes",
        default=None,
        group=FIXES,
        help="Also apply (and count as fixable) the fixes that may change float32 results",
    ),
    _option(
        "--fix-only/--no-fix-only",
        default=None,
        group=FIXES,
        help="Apply fixes, but don't report (or exit non-zero for) the findings that remain. "
        "Implies --fix",
    ),
    _option(
        "--diff",
        is_flag=True,
        group=FIXES,
        help="Print the fixes as a unified diff and write nothing; exit 1 when there is a "
        "diff. Implies --fix-only",
    ),
    _option(
        "--add-noqa",
        is_flag=True,
        group=FIXES,
        help="Silence every current finding with a `# noqa: CODE` comment on its line",
    ),
    _option(
        "--exit-non-zero-on-fix",
        is_flag=True,
        group=FIXES,
        help="Exit 1 when a file was fixed, even if no finding remains",
    ),
    # Output
    _option(
        "--output-format",
        type=click.Choice(OUTPUT_FORMATS),
        default=None,
        metavar="FORMAT",
        group=OUTPUT,
        help="How findings are printed: full (the default, ruff's layout; `text` is the same), "
        "concise (one line each), json (ruff's JSON), github (annotations), sarif, junit",
    ),
    _option(
        "-o",
        "--output-file",
        metavar="FILE",
        group=OUTPUT,
        help="Write the report to FILE instead of standard output",
    ),
    _option(
        "--show-fixes/--no-show-fixes",
        default=None,
        group=OUTPUT,
        help="After --fix, list the fixes applied per file and rule",
    ),
    _option(
        "--statistics",
        is_flag=True,
        group=OUTPUT,
        help="Count the findings per rule instead of listing them",
    ),
    _option(
        "--show-files",
        is_flag=True,
        group=OUTPUT,
        help="List the files dtypelint would check with the current settings, and exit",
    ),
    _option(
        "--show-settings",
        is_flag=True,
        group=OUTPUT,
        help="Show the settings dtypelint would use for the first file, and exit",
    ),
    _option(
        "--write-baseline",
        metavar="FILE",
        group=OUTPUT,
        help="Record the current findings in FILE (for --baseline) and exit 0",
    ),
    # File selection
    _option(
        "--exclude",
        multiple=True,
        metavar="PATTERNS",
        group=FILES,
        help="Comma-separated glob patterns of files and folders to skip; replaces the "
        "default excludes and `exclude`",
    ),
    _option(
        "--extend-exclude",
        multiple=True,
        metavar="PATTERNS",
        group=FILES,
        help="Like --exclude, but adds to the patterns already excluded",
    ),
    _option(
        "--force-exclude/--no-force-exclude",
        default=None,
        group=FILES,
        help="Apply the excludes to paths named on the command line too (for pre-commit)",
    ),
    _option(
        "--no-default-path",
        is_flag=True,
        group=FILES,
        help="With no PATH, check nothing instead of `.` (for hooks that pass the files)",
    ),
    _option(
        "--stdin-filename",
        metavar="NAME",
        group=FILES,
        help="The file name to report (and match settings against) for code read from `-`",
    ),
    # Miscellaneous
    _option(
        "-j",
        "--jobs",
        type=click.IntRange(min=1),
        metavar="N",
        group=MISC,
        help="Check files in at most N processes, started only when there is enough to check "
        "[default: all cores]",
    ),
    _option(
        "-n",
        "--no-cache",
        is_flag=True,
        group=MISC,
        help="Neither read nor write the cache of results (also DTYPELINT_NO_CACHE=1)",
    ),
    _option(
        "--cache-dir",
        metavar="CACHE_DIR",
        group=MISC,
        help="Where to keep the cache [env: DTYPELINT_CACHE_DIR] [default: .dtypelint_cache "
        "in the project root]",
    ),
    _option(
        "-w",
        "--watch",
        is_flag=True,
        group=MISC,
        help="Check again whenever a checked file or the settings change; Ctrl-C stops",
    ),
    _option(
        "-e",
        "--exit-zero",
        is_flag=True,
        group=MISC,
        help="Exit 0 even when findings remain",
    ),
]

#: Options every command accepts (`dtypelint -q check`, like ruff's global arguments).
LOG_OPTIONS: list[Callable[[F], F]] = [
    _option(
        "-v",
        "--verbose",
        is_flag=True,
        group=LOG_LEVELS,
        help="Also print what dtypelint does (settings, files, timings) on standard error",
    ),
    _option(
        "-q", "--quiet", is_flag=True, group=LOG_LEVELS, help="Print the findings, but nothing else"
    ),
    _option(
        "-s",
        "--silent",
        is_flag=True,
        group=LOG_LEVELS,
        help="Print nothing (but still exit 1 when findings remain)",
    ),
]

GLOBAL_OPTIONS: list[Callable[[F], F]] = [
    _option(
        "--config",
        "config_options",
        multiple=True,
        metavar="CONFIG_OPTION",
        group=GLOBAL,
        help="A settings file (pyproject.toml, dtypelint.toml), or a `KEY = VALUE` setting that "
        'overrides every file (e.g. --config "unsafe-fixes = true"); may be repeated',
    ),
    _option("--isolated", is_flag=True, group=GLOBAL, help="Read no configuration file"),
]


def apply(decorators: list[Callable[[F], F]], function: F) -> F:
    """Apply option decorators so that they show in list order."""
    for decorator in reversed(decorators):
        function = decorator(function)
    return function
