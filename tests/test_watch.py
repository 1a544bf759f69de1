"""`check --watch`: checks again when a file changes, and Ctrl-C ends it (a bounded real run)."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from dtypelint.cli_watch import snapshot, watch_loop

HAZARD = (
    "import torch\n\n\ndef f(x: torch.Tensor):\n    return x + torch.zeros(3, device=x.device)\n"
)
SECOND = "\n\ndef g(x: torch.Tensor):\n    return x * torch.ones(3, device=x.device)\n"
DEADLINE_S = 30


def test_watch_loop_runs_again_only_after_a_change() -> None:
    states = iter([{"a": (1, 1)}, {"a": (1, 1)}, {"a": (2, 1)}, {"a": (2, 1)}, {"a": (2, 1)}])
    runs: list[int] = []
    watch_loop(lambda: runs.append(1), lambda: next(states), sleep=lambda _: None, rounds=1)
    assert runs == [1]  # the unchanged poll ran nothing, the change ran once


def test_snapshot_sees_new_changed_and_removed_files(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    before = snapshot([path])
    assert before == {str(path): None}
    path.write_text("x = 1\n")
    created = snapshot([path])
    assert created != before
    path.write_text("x = 22\n")
    assert snapshot([path]) != created


class Lines:
    """The lines a process writes, read in a thread so the test can wait for one with a timeout."""

    def __init__(self, stream: object) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self.queue.put(line.rstrip("\n"))

    def wait_for(self, text: str) -> list[str]:
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            try:
                line = self.queue.get(timeout=0.2)
            except queue.Empty:
                continue
            self.seen.append(line)
            if text in line:
                return self.seen
        raise AssertionError(f"no {text!r} within {DEADLINE_S}s; saw {self.seen}")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_watch_checks_again_on_change_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    model = tmp_path / "model.py"
    model.write_text(HAZARD)
    process = subprocess.Popen(
        [sys.executable, "-m", "dtypelint", "--watch", "--output-format", "concise", "model.py"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        lines = Lines(process.stdout)
        first = lines.wait_for("Watching for file changes.")
        assert first[0].endswith("] Starting linter in watch mode...")
        assert first[-1].endswith("] Found 1 error. Watching for file changes.")
        lines.wait_for("model.py:5:16: DTL001 [*] torch.zeros(...)")
        time.sleep(0.1)
        model.write_text(HAZARD + SECOND)
        again = lines.wait_for("Found 2 errors. Watching for file changes.")
        assert any(line.endswith("] File change detected...") for line in again)
        lines.wait_for("model.py:9:16: DTL001 [*] torch.ones(...)")
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=DEADLINE_S) == 130
        assert process.stderr is not None and process.stderr.read() == ""  # no traceback
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
