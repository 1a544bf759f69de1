"""`check --show-files` and `check --show-settings`: what a run would check, and with what.

Both print ruff's layouts: absolute paths one per line; settings as `key = value` lines in
sections, lists one item per tab-indented line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import click

from dtypelint.cli_check import EXIT_CLEAN, EXIT_ERROR, CheckOptions, Log, targets
from dtypelint.config import Config, known_rule_names


def show_files(options: CheckOptions, config: Config, named: Sequence[tuple[Path, str]]) -> int:
    """The files a run would check, absolute and sorted; a path that does not exist is an error."""
    if options.reading_stdin:
        click.echo(os.path.abspath(options.stdin_filename) if options.stdin_filename else "-")
        return EXIT_CLEAN
    files = sorted(os.path.abspath(path) for path, _ in named if path.is_file())
    for file in files:
        click.echo(file)
    missing = [shown for path, shown in named if not path.is_file()]
    for shown in missing:
        Log.error(f"{shown}: No such file or directory")
    return EXIT_ERROR if missing else EXIT_CLEAN


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, (str, Path)):
        return f'"{value}"'
    return str(value)


def _list(key: str, items: Iterable[str]) -> list[str]:
    items = list(items)
    if not items:
        return [f"{key} = []"]
    return [f"{key} = [", *(f"\t{item}," for item in items), "]"]


def settings_lines(options: CheckOptions, config: Config) -> list[str]:
    """The resolved settings, grouped as ruff's `--show-settings` groups them."""
    from dtypelint.engine import DEFAULT_EXCLUDE

    names = known_rule_names()
    enabled = sorted(config.selected_codes(names))
    unsafe = (
        "enabled" if config.unsafe_fixes else ("disabled" if config.unsafe_fixes_set else "hint")
    )
    root = config.project_root or Path.cwd()
    from dtypelint import cache

    no_cache = options.no_cache or cache.env_disables_cache()
    cache_dir = None if no_cache else cache.cache_folder(config, options.cache_dir)
    lines = [
        "# General Settings",
        f"cache_dir = {_value(cache_dir)}",
        f"fix = {_value(bool(options.fix or options.fix_only))}",
        f"fix_only = {_value(bool(options.fix_only))}",
        f"output_format = {config.output_format}",
        f"show_fixes = {_value(bool(options.show_fixes))}",
        f"unsafe_fixes = {unsafe}",
        "",
        "# File Resolver Settings",
        *_list(
            "file_resolver.exclude",
            (f'"{p}"' for p in (DEFAULT_EXCLUDE if config.exclude is None else config.exclude)),
        ),
        *_list("file_resolver.extend_exclude", (f'"{p}"' for p in config.extend_exclude)),
        f"file_resolver.force_exclude = {_value(bool(options.force_exclude))}",
        "file_resolver.respect_gitignore = true",
        f"file_resolver.project_root = {_value(os.path.abspath(root))}",
        "",
        "# Linter Settings",
        *_list("linter.rules.enabled", (f"{names[code]} ({code})" for code in enabled)),
        *_list("linter.unfixable", (f"{names[c]} ({c})" for c in sorted(config.unfixable_codes()))),
        *_list(
            "linter.per_file_ignores",
            (f'"{pattern}" = {list(codes)}' for pattern, codes in config.per_file_ignores.items()),
        ),
        f"linter.ignore_noqa = {_value(config.ignore_noqa)}",
        *_list("linter.camera_names", sorted(config.camera_names)),
        "",
        "# Verify Settings",
        *(f"verify.{key} = {_value(value)}" for key, value in sorted(config.verify.items())),
    ]
    return lines


def show_settings(options: CheckOptions, config: Config, named: Sequence[tuple[Path, str]]) -> int:
    first = next((path for path, _ in named if path.is_file()), None)
    subject = first if first is not None else Path((targets(options) or ["."])[0])
    click.echo(f'Resolved settings for: "{os.path.abspath(subject)}"')
    if config.config_path is not None:
        click.echo(f'Settings path: "{os.path.abspath(config.config_path)}"')
    click.echo("")
    for line in settings_lines(options, config):
        click.echo(line)
    return EXIT_CLEAN
