"""`check --watch`: check, then check again whenever a checked file or the settings change.

Changes are found by polling modification times (no extra dependency, works on every file
system). The screen layout is ruff's: a status line, the count, then the findings. Ctrl-C ends
it (exit 130, as for any interrupted command).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TextIO

import click

from dtypelint.cli_check import (
    CheckOptions,
    Log,
    discover,
    emit,
    filter_findings,
    lint,
    make_report,
    print_problems,
    resolve_config,
    targets,
)
from dtypelint.config import CONFIG_FILENAMES, ConfigError

POLL_SECONDS = 0.5
CLEAR_SCREEN = "\x1b[H\x1b[2J\x1b[3J"

Snapshot = dict[str, tuple[int, int] | None]


def _stamp() -> str:
    return datetime.now().strftime("[%H:%M:%S]")


def snapshot(paths: Iterable[Path]) -> Snapshot:
    """Modification time and size of each path (None: it does not exist)."""
    state: Snapshot = {}
    for path in paths:
        try:
            status = path.stat()
        except OSError:
            state[str(path)] = None
        else:
            state[str(path)] = (status.st_mtime_ns, status.st_size)
    return state


def watch_loop(
    run: Callable[[], None],
    watched: Callable[[], Snapshot],
    *,
    interval: float = POLL_SECONDS,
    sleep: Callable[[float], None] = time.sleep,
    rounds: int | None = None,
) -> None:
    """Run, then run again after every change of `watched()`; forever unless `rounds` is given."""
    state = watched()
    done = 0
    while rounds is None or done < rounds:
        sleep(interval)
        current = watched()
        if current != state:
            run()
            state = watched()  # what the run wrote itself (--fix) is not a new change
            done += 1


def _watched_paths(options: CheckOptions) -> list[Path]:
    """The files a run checks, the paths named (so a new file is seen) and the settings files."""
    try:
        config = resolve_config(options, Log(CheckOptions()))
        files = [path for path, _ in discover(options, config)]
    except (ConfigError, click.ClickException):
        config, files = None, []
    paths = [*files, *(Path(target) for target in targets(options))]
    if config is not None and config.config_path is not None:
        paths.append(config.config_path)
    folders = {Path(target).resolve() for target in targets(options)} | {Path.cwd()}
    for folder in folders:
        for parent in (folder, *folder.parents):
            paths += [parent / name for name in CONFIG_FILENAMES]
    return paths


def _check_once(options: CheckOptions, log: Log, out: TextIO, status: str) -> None:
    if out.isatty():
        out.write(CLEAR_SCREEN)
    out.write(f"{_stamp()} {status}\n\n")
    try:
        config = resolve_config(options, log)
        outcomes, _ = lint(options, config, log)
        filter_findings(options, outcomes)
    except (ConfigError, click.ClickException) as exc:
        message = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
        Log.error(message)
        out.flush()
        return
    quiet = dataclasses.replace(options, quiet=True)
    report = make_report(quiet, config, outcomes)
    count = report.remaining
    out.write(f"{_stamp()} Found {count} error{'s' if count != 1 else ''}. ")
    out.write("Watching for file changes.\n\n")
    if not options.silent:
        emit(quiet, config, report, out)
    out.flush()
    print_problems(outcomes, log)


def run_watch(options: CheckOptions, log: Log) -> int:
    out = sys.stdout
    _check_once(options, log, out, "Starting linter in watch mode...")
    watch_loop(
        lambda: _check_once(options, log, out, "File change detected..."),
        lambda: snapshot(_watched_paths(options)),
    )
    return 0  # not reached: only Ctrl-C (KeyboardInterrupt, exit 130) ends watching
