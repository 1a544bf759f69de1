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
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any

from dtypelint import interrupts

#: How long stopped workers get to finish the replacement they are in, before SIGKILL.
STOP_GRACE_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1
_MISSING = object()


def _run_chunk(fn: Callable[..., Any], chunk: list[tuple[Any, ...]]) -> list[Any]:
    """In a worker: `fn` on each item of a chunk (one round trip for `chunksize` items)."""
    return [fn(*item) for item in chunk]


def _raise_if_interrupted(processes: list[Any]) -> None:
    """Workers stopped by SIGINT (Ctrl-C reaches the whole process group), or a run that is
    stopping, mean an interrupt, not a file that killed its worker: stop, never redo files.

    (SIGTERM exit codes prove nothing: the pool itself terminates the other workers when one
    dies. A SIGTERM sent to the whole group reaches this process too, and raises here.)
    """
    time.sleep(0.2)  # a signal on its way to this process is handled here, and raises
    codes = set()
    for process in processes:
        with contextlib.suppress(Exception):
            codes.add(process.exitcode)
    if interrupts.stopping() or -getattr(signal, "SIGINT", 2) in codes:
        raise KeyboardInterrupt()


class WorkerDied(RuntimeError):
    """The worker process checking a file died (a signal, the system's out-of-memory killer)."""


def _crashed(item: tuple[Any, ...], exitcode: int | None, initargs: tuple[Any, ...]) -> Any:
    """The engine's outcome for a file whose worker died while checking it alone: DTL901."""
    from dtypelint.engine import RunOptions
    from dtypelint.isolation import internal_error

    filename = item[0][1] if len(item) == 1 and isinstance(item[0], tuple) else str(item[0])
    if exitcode is not None and exitcode < 0:
        try:
            cause = f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            cause = f"killed by signal {-exitcode}"
        if exitcode == -getattr(signal, "SIGKILL", 9):
            cause += ", perhaps by the system for lack of memory"
    elif exitcode is not None:
        cause = f"exit code {exitcode}"
    else:
        cause = "it stopped without a result"
    config, options = (*initargs, None, None)[:2]
    from dtypelint.config import Config

    error = WorkerDied(f"the worker process checking this file died ({cause})")
    return internal_error(
        filename,
        error,
        config if isinstance(config, Config) else Config(),
        options if isinstance(options, RunOptions) else RunOptions(),
    )


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
    """A ProcessPoolExecutor for the engine's files (see the module's doc).

    `map` survives a worker that dies (killed by the system for memory, a crash in a C
    extension): the files whose results were lost are checked again in fresh workers, the ones
    in flight one at a time, and the file whose worker dies alone is reported as DTL901.
    """

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
        self._settings = (max_workers, mp_context, initializer, initargs)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        # The pool's helper threads start in the first submit: with the stop signals blocked.
        with interrupts.blocked_for_new_threads():
            return super().submit(fn, *args, **kwargs)

    def map(  # type: ignore[override]
        self,
        fn: Callable[..., Any],
        *iterables: Iterable[Any],
        timeout: float | None = None,
        chunksize: int = 1,
    ) -> Iterator[Any]:
        items = list(zip(*iterables))
        results: list[Any] = [_MISSING] * len(items)
        size = max(1, chunksize)
        deadline = None if timeout is None else time.monotonic() + timeout
        # Chunks submitted here, not through `Executor.map`: on an error its iterator cancels
        # the pending futures from this thread, and the pool's manager thread, finding the
        # workers stopped, then sets BrokenProcessPool on a cancelled future: Python 3.11 raises
        # InvalidStateError there, a traceback on stderr in the middle of an interrupt.
        try:
            futures = [  # a worker may die meanwhile
                (start, self.submit(_run_chunk, fn, items[start : start + size]))
                for start in range(0, len(items), size)
            ]
            for start, future in futures:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                chunk = future.result(left)
                results[start : start + len(chunk)] = chunk
        except BrokenProcessPool:
            processes = list((getattr(self, "_processes", None) or {}).values())
            self.stop()
            _raise_if_interrupted(processes)
            self._recover(fn, items, results)
        return iter(results)

    def _fresh(self, workers: int | None = None) -> WorkerPool:
        max_workers, mp_context, initializer, initargs = self._settings
        return WorkerPool(workers or max_workers, mp_context, initializer, initargs)

    def _recover(
        self, fn: Callable[..., Any], items: list[tuple[Any, ...]], results: list[Any]
    ) -> None:
        """Redo what a dead worker lost. Each round first runs the earliest unfinished items (the
        suspects: the pool works in order) alone, then the rest together."""
        suspects_per_round = (self._settings[0] or 1) + 1
        while True:
            pending = [index for index, result in enumerate(results) if result is _MISSING]
            if not pending:
                return
            for index in pending[:suspects_per_round]:
                results[index] = self._alone(fn, items[index])
            rest = pending[suspects_per_round:]
            if not rest:
                return
            pool = self._fresh()
            try:
                futures = [(index, pool.submit(fn, *items[index])) for index in rest]
                for index, future in futures:
                    results[index] = future.result()
            except BrokenProcessPool:
                processes = list((getattr(pool, "_processes", None) or {}).values())
                pool.stop()
                _raise_if_interrupted(processes)
                continue
            pool.shutdown()
            return

    def _alone(self, fn: Callable[..., Any], item: tuple[Any, ...]) -> Any:
        pool = self._fresh(1)
        try:
            future = pool.submit(fn, *item)
            processes = list((getattr(pool, "_processes", None) or {}).values())
            try:
                result = future.result()
            except BrokenProcessPool:
                for process in processes:
                    with contextlib.suppress(Exception):
                        process.join(STOP_GRACE_SECONDS)
                codes = [p.exitcode for p in processes if p.exitcode not in (None, 0)]
                return _crashed(item, codes[0] if codes else None, self._settings[3])
        except BaseException:
            pool.stop()
            raise
        pool.shutdown()
        return result

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
