"""Worker processes that never outlive the run and never hold its output.

`WorkerPool` is a ProcessPoolExecutor whose workers
- die within a moment when the main process dies, by any signal, SIGKILL included (Linux:
  `PR_SET_PDEATHSIG`; elsewhere a thread that watches the parent's pid);
- read and write /dev/null instead of the run's standard streams, so a CI step waiting for the
  run's output is never kept waiting by a worker;
- keep the default action of SIGINT and SIGTERM, blocked only while they replace a file
  (`dtypelint.interrupts`): a worker stops at once, never half-way through a write;
and which, when the `with` block ends in an exception (Ctrl-C, SIGTERM), are stopped and reaped
instead of joined: no deadlock with workers blocked on a full result pipe.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from types import TracebackType
from typing import Any

from dtypelint import interrupts

#: How long stopped workers get to finish the replacement they are in, before SIGKILL.
STOP_GRACE_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    signum = getattr(signal, "SIGTERM", None)
    armed = False
    if sys.platform.startswith("linux") and signum is not None:
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0) == 0
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)
    if not armed:
        _watch_parent(parent)


def _watch_parent(parent: int) -> None:
    """Poll the parent's pid; when it is gone, stop this worker as SIGTERM would."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        if hasattr(signal, "SIGTERM"):
            os.kill(os.getpid(), signal.SIGTERM)  # deferred while a file is being replaced
        else:  # pragma: no cover - Windows
            os._exit(1)

    # Created with the stop signals blocked, so that they never land in this thread.
    with interrupts.masked_while(thread_runs=True):
        threading.Thread(target=watch, name="dtypelint-parent-watch", daemon=True).start()


def _quiet_streams() -> None:
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):
            with contextlib.suppress(OSError):
                os.dup2(null, descriptor)
        if null > 2:
            os.close(null)


def _setup_worker(
    parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    interrupts.enter_worker_mode()
    _quiet_streams()
    _die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


class WorkerPool(ProcessPoolExecutor):
    """A ProcessPoolExecutor for the engine's files (see the module's doc)."""

    def __init__(
        self,
        max_workers: int | None = None,
        mp_context: Any = None,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        super().__init__(
            max_workers=max_workers,
            mp_context=mp_context,
            initializer=_setup_worker,
            initargs=(os.getpid(), initializer, initargs),
        )

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None:
        if exc_type is None:
            return super().__exit__(exc_type, exc, traceback)
        self.stop()
        return None

    def stop(self) -> None:
        """Stop every worker now (SIGTERM, then SIGKILL after STOP_GRACE_SECONDS) and reap them."""
        processes = list((getattr(self, "_processes", None) or {}).values())
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(max(0.0, deadline - time.monotonic()))
        for process in processes:
            with contextlib.suppress(Exception):
                if process.is_alive():
                    process.kill()
                    process.join(1.0)
        with contextlib.suppress(Exception):
            self.shutdown(wait=False, cancel_futures=True)
