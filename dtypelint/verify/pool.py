"""The parent's handle on one worker process (see worker.py): start it, send it an example, wait
with a per-state timeout, and survive its crash or hang. No torch in this process.

A hung worker gets SIGTERM (its faulthandler writes where it was stuck), then SIGKILL for its
whole process group (data loader workers and other children included). The next request starts
a fresh worker: the crash or hang costs that one example, never the ones after it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

_KILL_GRACE_S = 5.0
_LOG_TAIL_CHARS = 2000
STARTUP_LIMIT_S = 300.0  # starting Python and importing torch, before the timeout applies
_TIMEOUT: dict[str, Any] = {"event": "timeout"}  # no event within the deadline (a sentinel)


class WorkerStartError(Exception):
    """The worker could not start: torch does not import, or the device cannot be used."""


@dataclass
class Reply:
    """What came back for one request: the events, and how the worker ended if it did."""

    phases: dict[str, dict[str, Any]] = field(default_factory=dict)
    current: str | None = None  # the state the worker was in when it stopped answering
    data: dict[str, Any] | None = None  # the final event of a non-run request
    timed_out: bool = False
    died: bool = False
    returncode: int | None = None
    log_tail: str = ""
    stack: list[tuple[str, int, str]] = field(default_factory=list)
    start_error: str | None = None  # a restarted worker could not start


class WorkerProcess:
    """One worker process at a time, restarted on demand after a crash or a timeout."""

    def __init__(
        self,
        name: str,
        cwd: Path,
        workdir: Path,
        setup: dict[str, Any],
        env: dict[str, str],
        timeout: float,
    ) -> None:
        self.name = name
        self.cwd = cwd
        self.workdir = workdir
        self.setup = setup
        self.env = env
        self.timeout = timeout
        self.process: subprocess.Popen[str] | None = None
        self.events: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.ready: dict[str, Any] | None = None  # the last worker's "ready" event
        self.starts = 0
        self.log_path = workdir / "log.txt"
        self.stack_path = workdir / "stack.txt"

    # --- life cycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Start the process (torch imports in the background); `wait_ready` waits for it."""
        self.starts += 1
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.workdir / f"log-{self.starts}.txt"
        self.stack_path = self.workdir / f"stack-{self.starts}.txt"
        self.events = queue.Queue()
        self.ready = None
        posix = os.name == "posix"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "dtypelint.verify.worker"],
                cwd=self.cwd,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                encoding="utf-8",
                start_new_session=posix,  # its own process group, so a timeout can end all of it
            )
        assert self.process.stdout is not None
        threading.Thread(target=_pump, args=(self.process.stdout, self.events), daemon=True).start()
        self._send({**self.setup, "stack_path": str(self.stack_path)})

    def wait_ready(self) -> dict[str, Any]:
        """The worker's "ready" event; WorkerStartError when it reports an error or dies."""
        if self.process is None:
            self.start()
        if self.ready is not None:
            return self.ready
        event = self._next(time.monotonic() + max(self.timeout, STARTUP_LIMIT_S))
        if event is not None and event.get("event") == "ready":
            self.ready = event
            return event
        if event is not None and event.get("event") == "error":
            self.close()
            raise WorkerStartError(event["message"])
        hung = event is _TIMEOUT
        self._stop()
        self.close()
        if hung:
            raise WorkerStartError(f"importing torch took over {STARTUP_LIMIT_S:g} s")
        tail = (_tail(self.log_path).strip().splitlines() or ["no output"])[-1]
        raise WorkerStartError(f"could not start torch: {tail}")

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def close(self) -> None:
        """Ask the worker to exit, then make sure it and its children are gone."""
        process = self.process
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            self._send({"op": "exit"})
            assert process.stdin is not None
            process.stdin.close()
        try:
            process.wait(timeout=_KILL_GRACE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        _kill_group(process.pid)  # what the examples started and left running
        self.process = None

    def kill(self) -> None:
        """Stop the worker at once (it is not needed after all)."""
        if self.process is not None:
            self.process.kill()
            _kill_group(self.process.pid)
            self.process.wait()
            self.process = None

    # --- requests ------------------------------------------------------------------------------

    def request(self, message: dict[str, Any], final: str) -> Reply:
        """Send `message` and collect events until one named `final` arrives, the worker dies,
        or a state lasts longer than the timeout. Never raises for the example's sake."""
        if not self.alive:
            self.close()
            self.start()
        try:
            self.wait_ready()
        except WorkerStartError as exc:
            return Reply(died=True, start_error=str(exc))
        reply = Reply()
        try:
            self._send(message)
        except (OSError, ValueError):
            return self._ended(reply, timed_out=False)
        deadline = time.monotonic() + self.timeout
        while True:
            event = self._next(deadline)
            if event is None or event is _TIMEOUT:
                return self._ended(reply, timed_out=event is _TIMEOUT)
            kind = event.get("event")
            if kind == "state":
                reply.current = event["phase"]
                deadline = time.monotonic() + self.timeout
            elif kind == "phase":
                reply.phases[event["phase"]] = event["outcome"]
            if kind == final:
                reply.data = event
                reply.current = None
                return reply

    def _next(self, deadline: float) -> dict[str, Any] | None:
        """The next event before `deadline`: _TIMEOUT when none came, None when the worker's
        output ended (it died or exited)."""
        try:
            return self.events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return _TIMEOUT

    def _ended(self, reply: Reply, timed_out: bool) -> Reply:
        """The worker stopped answering: a timeout (we stop it) or a death (it stopped)."""
        if timed_out:
            self._stop()
        else:
            self._reap()
        reply.timed_out = timed_out
        reply.died = not timed_out
        reply.returncode = self.process.returncode if self.process is not None else None
        reply.log_tail = _tail(self.log_path)
        reply.stack = parse_stack_dump(self.stack_path)
        self.close()
        return reply

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def _stop(self) -> None:
        # SIGTERM first: the worker's faulthandler writes where it was stuck, then it exits.
        process = self.process
        if process is None:
            return
        process.terminate()
        try:
            process.wait(timeout=_KILL_GRACE_S)
        except subprocess.TimeoutExpired:
            process.kill()
            _kill_group(process.pid)
            process.wait()
        _kill_group(process.pid)

    def _reap(self) -> None:
        if self.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=_KILL_GRACE_S)


def _pump(stream: IO[str], events: queue.Queue[dict[str, Any] | None]) -> None:
    """Reader thread: every JSON line of the worker becomes an event; None marks the end."""
    for line in stream:
        with contextlib.suppress(ValueError):
            event = json.loads(line)
            if isinstance(event, dict):
                events.put(event)
    events.put(None)


def _kill_group(pgid: int) -> None:
    if os.name == "posix":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def _tail(path: Path) -> str:
    try:
        return path.read_text(errors="replace")[-_LOG_TAIL_CHARS:]
    except OSError:
        return ""


_STACK_LINE = re.compile(r'^\s*File "(?P<file>.+)", line (?P<line>\d+) in (?P<function>.+)$')


def parse_stack_dump(path: Path) -> list[tuple[str, int, str]]:
    """Frames (innermost first) of the main thread from a faulthandler dump."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return []
    blocks = re.split(r"\n(?=\S)", text.strip())
    current = [block for block in blocks if block.startswith("Current thread")]
    chosen = current[0] if current else (blocks[0] if blocks else "")
    frames = []
    for line in chosen.splitlines():
        match = _STACK_LINE.match(line)
        if match:
            frames.append((match["file"], int(match["line"]), match["function"].strip()))
    return frames
