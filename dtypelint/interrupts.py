"""Stopping cleanly: SIGINT and SIGTERM end a run within a moment, and no file is half-written.

In the main process, SIGINT raises KeyboardInterrupt (exit 130) and SIGTERM raises `Terminated`
(exit 143), as `timeout` and CI runners send it. Before either is raised, `stop_writes` marks the
process as stopping: a file replacement already under way finishes (files are replaced with one
`os.replace`, see `fixer.write_atomic`), and none starts after it.

Worker processes (`dtypelint.workers`) keep the default, immediate action of both signals; while a
worker replaces a file it blocks them in every thread, so it dies right after the replacement,
never in the middle of it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_TERMINATED = 143  # 128 + SIGTERM
#: The signals that stop a run.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name)
)
_CAN_MASK = hasattr(signal, "pthread_sigmask")

_stopping = threading.Event()
# Reentrant: the signal handler may run in the thread that is writing (it then stops the write).
_write_lock = threading.RLock()
# In a worker process (default signal actions): block the stop signals around each replacement.
_worker_mode = False


class Terminated(KeyboardInterrupt):
    """SIGTERM: the run stops as on Ctrl-C, with exit code 143."""


class WritesStopped(Exception):
    """A write was refused because the run is stopping; the file is left as it was."""


def exit_code_for(interrupt: BaseException) -> int:
    return EXIT_TERMINATED if isinstance(interrupt, Terminated) else EXIT_INTERRUPTED


def stopping() -> bool:
    return _stopping.is_set()


def stop_writes() -> None:
    """No file is replaced from now on; waits for a replacement in progress to finish."""
    with _write_lock:
        _stopping.set()


#: The exception the stop signal raised, raised again at the next check (`raise_if_stopped`).
_raised: type[KeyboardInterrupt] | None = None


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global _raised
    stop_writes()
    _raised = Terminated if signum == getattr(signal, "SIGTERM", None) else KeyboardInterrupt
    raise _raised()


def raise_if_stopped() -> None:
    """Between files: stop if a signal arrived. Its exception can be lost on the way (raised
    inside a finalizer that the garbage collector ran, Python prints it and goes on), and the
    run must stop all the same."""
    if _raised is not None and _stopping.is_set():
        raise _raised()


@contextlib.contextmanager
def handling_signals() -> Iterator[None]:
    """For the command line's run (main thread): SIGINT and SIGTERM stop it cleanly.

    The previous handlers come back afterwards (the command may run inside a test process).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _raised
    previous = {}
    _raised = None
    for signum in STOP_SIGNALS:
        with contextlib.suppress(OSError, ValueError):
            previous[signum] = signal.signal(signum, _on_signal)
    _stopping.clear()
    try:
        yield
    finally:
        for signum, handler in previous.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(signum, handler)


@contextlib.contextmanager
def guarded_write() -> Iterator[None]:
    """Around replacing one file: refused (WritesStopped) once the run is stopping; in a worker,
    the stop signals wait until the replacement is done."""
    blocked = _block_stop_signals() if _worker_mode else None
    try:
        with _write_lock:
            if _stopping.is_set():
                raise WritesStopped("the run was interrupted; the file is left unchanged")
            yield
    finally:
        if blocked is not None:
            _unblock(blocked)


def _block_stop_signals() -> set[int] | None:
    if not _CAN_MASK:
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)  # type: ignore[return-value]


def _unblock(previous: set[int]) -> None:
    signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def enter_worker_mode() -> None:
    """In a worker process: default (immediate) signal actions, writes guarded by masks."""
    global _worker_mode
    _worker_mode = True  # `_stopping` is inherited: a worker forked while stopping never writes
    for signum in STOP_SIGNALS:
        with contextlib.suppress(OSError, ValueError):
            signal.signal(signum, signal.SIG_DFL)
    if _CAN_MASK:
        # A forked worker inherits the mask of the thread that forked it, which blocks the stop
        # signals (`blocked_for_new_threads`): an idle worker would ignore SIGTERM until killed.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def worker_mode() -> bool:
    return _worker_mode


@contextlib.contextmanager
def masked_while(thread_runs: bool = True) -> Iterator[None]:
    """In a worker, while another thread (the file's) does the work: this thread blocks the stop
    signals, so that they reach the working thread, which blocks them only while it replaces a
    file. Elsewhere, nothing."""
    with _stop_signals_blocked(_worker_mode and _CAN_MASK and thread_runs):
        yield


def configure_file_thread() -> None:
    """At the start of a file's thread.

    In a worker: receive the stop signals (the caller blocks them), so that the worker dies at
    once unless it is replacing a file. In the main process: block them, so that the kernel
    delivers them to the main thread, whose wait for this thread they interrupt at once (a
    signal caught by another thread would only be seen when that wait ends).
    """
    if not _CAN_MASK:
        return
    how = signal.SIG_UNBLOCK if _worker_mode else signal.SIG_BLOCK
    signal.pthread_sigmask(how, STOP_SIGNALS)


@contextlib.contextmanager
def blocked_for_new_threads() -> Iterator[None]:
    """Threads started inside inherit blocked stop signals (a process pool's helper threads),
    so that the signals go to the main thread, whose waits they interrupt."""
    with _stop_signals_blocked(_CAN_MASK and threading.current_thread() is threading.main_thread()):
        yield


@contextlib.contextmanager
def _stop_signals_blocked(block: bool) -> Iterator[None]:
    """SIGINT and SIGTERM blocked in this thread inside (when `block`), the mask restored after."""
    if not block:
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
