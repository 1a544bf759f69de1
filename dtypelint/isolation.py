"""One file's work, isolated from the others.

- **Deep code**: `run_deep` runs a function in a thread with a large stack and a raised
  recursion limit, so that a 1,000-term `+` chain or a 300-branch `elif` chain (valid code that
  Python compiles) is parsed and analysed like any other file. `ast.parse` runs under a lower
  limit (`PARSE_RECURSION_LIMIT`) than the analysis (`DEEP_RECURSION_LIMIT`, four times more):
  whatever the parser accepts, the analysis can walk. A file nested deeper than the parser
  accepts is DTL000, as Python itself refuses it.
- **Exceptions**: `isolated` wraps the engine's per-file function; any exception while reading,
  analysing or fixing one file (a RecursionError or MemoryError included) becomes a DTL901
  finding on that file and an error line, and the run goes on with the other files.

Nothing here imports torch or the analysis.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from dtypelint import interrupts
from dtypelint.diagnostics import Diagnostic, Location
from dtypelint.rules import INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME

if TYPE_CHECKING:
    from dtypelint.config import Config
    from dtypelint.engine import FileOutcome, RunOptions

T = TypeVar("T")

#: Stack of a file's thread. Reserved, not used: pages are touched only as deep as the code goes.
DEEP_STACK_BYTES = 512 * 1024 * 1024
#: Recursion limit while a file is analysed or fixed (about 2.6 KB of stack per frame; Python
#: 3.11's frames take far less, measured below 700 bytes on the deepest analyses).
DEEP_RECURSION_LIMIT = 200_000
#: Recursion limit while `ast.parse` builds a tree: the analysis needs at most about three frames
#: per level of nesting (an `elif` branch), so anything that parses can be analysed.
PARSE_RECURSION_LIMIT = DEEP_RECURSION_LIMIT // 4
ISSUES_URL = "https://github.com/dtypelint/dtypelint/issues"

_local = threading.local()
_lock = threading.Lock()
_deep_threads = 0
_saved_limit: int | None = None


def in_deep_thread() -> bool:
    return bool(getattr(_local, "deep", False))


def _raise_limit() -> None:
    global _deep_threads, _saved_limit
    if _deep_threads == 0:
        _saved_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(_saved_limit, DEEP_RECURSION_LIMIT))
    _deep_threads += 1


def _restore_limit() -> None:
    global _deep_threads, _saved_limit
    with _lock:
        _deep_threads -= 1
        if _deep_threads == 0 and _saved_limit is not None:
            sys.setrecursionlimit(_saved_limit)
            _saved_limit = None


class _DeepThread:
    """A daemon thread with a deep stack that runs one file's work at a time.

    Threads are kept and reused: starting one per file cost about a millisecond each (a fresh
    thread state and fresh stack pages), 10% of a check of kornia. An idle thread waits for its
    next job; a thread whose caller was interrupted finishes its job, then becomes idle again.
    """

    def __init__(self) -> None:
        self._job: (
            tuple[
                Callable[..., Any], tuple[Any, ...], dict[str, Any], dict[str, Any], threading.Event
            ]
            | None
        ) = None
        self._posted = threading.Semaphore(0)
        self.thread = threading.Thread(target=self._loop, name="dtypelint-file", daemon=True)

    def post(
        self,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        outcome: dict[str, Any],
        done: threading.Event,
    ) -> None:
        self._job = (function, args, kwargs, outcome, done)
        self._posted.release()

    def _loop(self) -> None:
        _local.deep = True
        interrupts.configure_file_thread()
        while True:
            self._posted.acquire()
            job, self._job = self._job, None
            assert job is not None
            function, args, kwargs, outcome, done = job
            del job
            try:
                outcome["value"] = function(*args, **kwargs)
            except BaseException as exc:  # carried to the caller, whatever it is
                outcome["error"] = exc
            finally:
                del function, args, kwargs, outcome  # nothing of the file stays alive here
                _restore_limit()
                with _lock:
                    _idle.append(self)
                done.set()


#: Deep threads waiting for work (more than one only when several threads call `run_deep`).
_idle: list[_DeepThread] = []


def _reset_after_fork() -> None:
    # A forked child has only the thread that forked: the parent's deep threads are not there.
    global _lock, _deep_threads, _saved_limit
    _idle.clear()
    _lock = threading.Lock()
    _deep_threads = 0
    _saved_limit = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def _start_deep_thread() -> _DeepThread | None:
    """A new deep thread, started; None when the platform cannot start one. Called with _lock."""
    previous: int | None = threading.stack_size()
    try:
        threading.stack_size(DEEP_STACK_BYTES)
    except (ValueError, RuntimeError):  # a platform without settable stacks
        previous = None
    try:
        worker = _DeepThread()
        worker.thread.start()
    except (RuntimeError, MemoryError):  # cannot start a thread: the caller does the work
        return None
    finally:
        if previous is not None:
            threading.stack_size(previous)
    return worker


def run_deep(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`function(*args, **kwargs)` in a thread with a deep stack; its exception is re-raised here.

    Called from such a thread already, it just calls `function`. When the calling thread is
    interrupted (Ctrl-C) while it waits, the interrupt propagates at once; the worker thread is a
    daemon and dies with the process (writes are guarded separately, see `dtypelint.interrupts`).
    """
    if in_deep_thread():
        return function(*args, **kwargs)
    outcome: dict[str, Any] = {}
    done = threading.Event()
    with interrupts.masked_while():
        with _lock:
            worker = _idle.pop() if _idle else _start_deep_thread()
            if worker is not None:
                _raise_limit()
        if worker is None:
            return function(*args, **kwargs)
        worker.post(function, args, kwargs, outcome, done)
        done.wait()
    if "error" in outcome:
        error = outcome.pop("error")
        try:
            raise error
        finally:
            del error
    return outcome["value"]  # type: ignore[no-any-return]


@contextlib.contextmanager
def parse_depth() -> Iterator[None]:
    """While `ast.parse` runs in a deep thread: the parser's lower limit (see the module doc).

    Only when this is the process's one deep thread (the command line always runs one at a time;
    lowering the shared limit under another thread's deep analysis would break it).
    """
    lowered = False
    if in_deep_thread():
        with _lock:
            if _deep_threads == 1 and sys.getrecursionlimit() > PARSE_RECURSION_LIMIT:
                with contextlib.suppress(RecursionError):
                    sys.setrecursionlimit(PARSE_RECURSION_LIMIT)
                    lowered = True
    try:
        yield
    finally:
        if lowered:
            with _lock:
                sys.setrecursionlimit(max(sys.getrecursionlimit(), DEEP_RECURSION_LIMIT))


# ---------------------------------------------------------------------------------------------
# Exceptions as findings


def describe(exc: BaseException) -> str:
    """`RecursionError: maximum recursion depth exceeded`: the original exception, named."""
    cause = exc.__cause__ if exc.__cause__ is not None else exc
    text = str(cause).strip().splitlines()[0] if str(cause).strip() else ""
    name = type(cause).__name__
    return f"{name}: {text}" if text else name


def internal_error_diagnostic(filename: str, exc: BaseException, stage: str) -> Diagnostic:
    start = Location(1, 1)
    where = _rule_in(exc)
    consequence = {
        "fixing": "the file was left unchanged",
        "reporting": "its findings are not shown",
    }.get(stage, "the file was not checked")
    message = (
        f"Internal error while {stage} this file{where}: {describe(exc)}; {consequence} "
        f"(please report it at {ISSUES_URL})"
    )
    return Diagnostic(INTERNAL_ERROR_CODE, INTERNAL_ERROR_NAME, message, filename, start, start)


def _rule_in(exc: BaseException) -> str:
    # RuleError messages name the rule: "m.py: internal error in DTL002: ValueError('boom')".
    text = str(exc)
    marker = "internal error in "
    if marker in text:
        rule = text.split(marker, 1)[1].split(":", 1)[0]
        if rule.startswith("DTL"):
            return f" (in {rule})"
    return ""


def error_line(filename: str, exc: BaseException, stage: str) -> str:
    """The one line on standard error (the run then exits 2)."""
    from dtypelint.linter import RuleError

    if isinstance(exc, RuleError):
        return str(exc)
    return f"{filename}: internal error while {stage}: {exc!r}"


def internal_error(
    filename: str,
    exc: BaseException,
    config: Config,
    options: RunOptions,
    stage: str = "checking",
    diagnostics: list[Diagnostic] | None = None,
    text: str | None = None,
) -> FileOutcome:
    """The outcome of a file whose processing raised: DTL901 (unless ignored) and an error line."""
    from dtypelint.engine import FileOutcome, _with_lines
    from dtypelint.linter import default_rules, rule_names

    rules = options.rules if options.rules is not None else default_rules()
    found = [d for d in diagnostics or () if d.code != INTERNAL_ERROR_CODE]
    try:
        selected = INTERNAL_ERROR_CODE in config.codes_for_file(filename, rule_names(rules))
    except Exception:  # the settings themselves are what broke: report it anyway
        selected = True
    if selected:
        found.append(internal_error_diagnostic(filename, exc, stage))
        found.sort(key=Diagnostic.sort_key)
    outcome = FileOutcome(filename, found, errors=[error_line(filename, exc, stage)])
    return _with_lines(outcome, text)


def isolated(process: Callable[..., FileOutcome]) -> Callable[..., FileOutcome]:
    """Decorate the engine's `process_file(path, filename, config, options)`: run it in a deep
    thread, and turn any exception from it into that file's DTL901 outcome."""

    @functools.wraps(process)
    def guarded(path: Any, filename: str, config: Config, options: RunOptions) -> FileOutcome:
        try:
            return run_deep(process, path, filename, config, options)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # Exception, RecursionError, MemoryError: one file only
            from dtypelint.cache import CacheMiss

            if isinstance(exc, CacheMiss):  # not a failure: the cache's first pass asks again
                raise
            stage = "fixing" if options.fix or options.diff else "checking"
            return internal_error(filename, exc, config, options, stage)

    return guarded
