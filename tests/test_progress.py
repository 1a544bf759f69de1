"""Progress on a terminal (dtypelint/progress.py): shown on standard error when it is a terminal
and the run lasts, cleared at the end; nothing when it is not a terminal or with --quiet."""

from __future__ import annotations

import errno
import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from dtypelint.progress import Progress

CLEAR = "\r\x1b[K"
SOURCE = "import torch\n\n\ndef f(x: torch.Tensor):\n    return x * torch.zeros(3)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for index in range(6):
        (tmp_path / f"m{index}.py").write_text(SOURCE)
    return tmp_path


def run_on_terminal(
    folder: Path, *args: str, delay: str | None = "0", stderr_terminal: bool = True
) -> tuple[int, str, str]:
    """`dtypelint check ARGS .` with standard error on a pseudo-terminal (or a pipe)."""
    env = {**os.environ, "DTYPELINT_NO_CACHE": "1"}
    env.pop("DTYPELINT_PROGRESS_DELAY", None)
    if delay is not None:
        env["DTYPELINT_PROGRESS_DELAY"] = delay
    command = [sys.executable, "-m", "dtypelint", "check", *args, "."]
    if not stderr_terminal:
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
        return done.returncode, done.stdout, done.stderr
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            command,
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=follower,
        )
    finally:
        os.close(follower)
    out = process.communicate()[0].decode()
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError as exc:  # EIO: the terminal's other side is closed and drained
            if exc.errno != errno.EIO:
                raise
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    return process.returncode, out, b"".join(chunks).decode()


def test_progress_is_shown_on_a_terminal_and_cleared(project: Path) -> None:
    code, out, err = run_on_terminal(project, "--output-format", "concise")
    assert code == 1
    assert "Checking files: 6/6" in err
    assert err.endswith(CLEAR)  # the last thing written clears the line
    assert "\x1b" not in out and out.count("DTL001") == 6


def test_no_progress_when_standard_error_is_not_a_terminal(project: Path) -> None:
    code, out, err = run_on_terminal(project, "--output-format", "concise", stderr_terminal=False)
    assert (code, err) == (1, "")
    assert out.count("DTL001") == 6


def test_no_progress_with_quiet_or_silent(project: Path) -> None:
    for option in ("--quiet", "--silent"):
        code, _, err = run_on_terminal(project, option)
        assert (code, err) == (1, "")


def test_no_progress_for_a_quick_run(project: Path) -> None:
    code, _, err = run_on_terminal(project, "--output-format", "concise", delay=None)
    assert (code, err) == (1, "")


def test_progress_counts_files_done_through_a_pool(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dtypelint import scheduling
    from dtypelint.config import Config
    from dtypelint.engine import discover_files, lint_paths

    monkeypatch.setattr(scheduling, "POOL_MIN_BYTES", 0)
    stream = io.StringIO()
    progress = Progress(stream, delay=0)
    outcomes = lint_paths(discover_files([str(project)], Config()), Config(), 2, progress=progress)
    assert len(outcomes) == 6 and (progress.done, progress.total) == (6, 6)
    progress.finish()
    assert stream.getvalue().endswith("Checking files: 6/6" + CLEAR)


def test_progress_is_throttled_and_phases_restart_the_count() -> None:
    stream = io.StringIO()
    progress = Progress(stream, delay=0)
    progress.start(1000)
    for _ in range(1000):
        progress.advance()
    progress.start(3, "Checking files again with the project's summaries")
    progress.advance(3)
    progress.finish()
    drawn = stream.getvalue().split(CLEAR)
    assert len(drawn) < 50  # redrawn at most every 0.1 s, and at the end of a phase
    assert "Checking files: 1000/1000" in drawn
    assert drawn[-2:] == ["Checking files again with the project's summaries: 3/3", ""]


def test_a_terminal_that_goes_away_stops_the_drawing() -> None:
    stream = io.StringIO()
    progress = Progress(stream, delay=0)
    stream.close()
    progress.start(2)
    progress.advance()
    assert not progress.enabled
    progress.finish()
