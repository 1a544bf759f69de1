"""Running one phase of engine.lint_paths: cached results first, then the rest, here or in a pool.

1. With a cache, the files that have an entry are looked up in this process (one listing of the
   cache folder, one read per source folder's shard; no read of a file without an entry); a hit
   costs reading and hashing the file. What the phase computes is stored at its end, here.
2. What is left is checked here, or in a pool of processes when it is big enough to pay for one:
   forking the workers, shipping results back and shutting them down costs tens of
   milliseconds, about what checking `POOL_MIN_BYTES` of source costs (benchmarks/bench.py,
   `--scaling`), and only where other work leaves cores idle (cpuload.py: on a machine whose
   other cores are busy, a second worker shares this process's core and only adds its cost).
   `--jobs` is the most processes used; `--jobs 1` never starts a pool.
3. With processes, this one and the forked helpers take chunks in turn from a shared counter
   (this process works too rather than wait; where the other cores turn out to be busy, it
   simply checks more of the files). Files go largest first: the large files alone, then
   small files packed together, so that the last chunks are small and nobody idles while
   another finishes a big file. The project's summaries (phase 2) reach the helpers with the
   fork, built once.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dtypelint.cache import CacheMiss

if TYPE_CHECKING:
    from dtypelint.config import Config
    from dtypelint.engine import FileOutcome, RunOptions
    from dtypelint.progress import Progress

#: Source still to check (bytes) below which one process is faster than a pool. Measured on
#: 2 cores shared with other work (slices of kornia, the command's wall time, median of 9):
#: 256 KB 0.18 s alone, 0.19 s with a pool of 2; 512 KB 0.27 s, 0.22 s; 1 MB 0.50 s, 0.37 s.
POOL_MIN_BYTES = 384 * 1024
#: Chunks per worker: enough that the last ones are small, few enough to ship cheaply.
CHUNKS_PER_WORKER = 8

Item = tuple[str, str]  # (path, name shown)


def default_jobs() -> int:
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def run_items(
    items: Sequence[Item],
    config: Config,
    options: RunOptions,
    jobs: int | None,
    progress: Progress | None = None,
) -> list[FileOutcome]:
    """process_file for every item, in order; `jobs` None: decide from the work left."""
    from dtypelint.engine import process_file

    outcomes: list[FileOutcome | None] = [None] * len(items)
    pending = list(range(len(items)))
    if options.cache is not None:
        pending = _cached_first(items, config, options, outcomes, pending, progress)
    sizes = {index: _size(items[index][0]) for index in pending}
    workers = pool_size(jobs, [sizes[index] for index in pending], _idle_cores(jobs))
    if workers <= 1:
        for index in pending:
            path, name = items[index]
            outcomes[index] = process_file(Path(path), name, config, options)
            if progress is not None:
                progress.advance()
    else:
        _run_pool(items, config, options, pending, sizes, workers, outcomes, progress)
    if options.cache is not None:
        options.cache.flush()  # what this phase computed, here or in the workers
    return outcomes  # type: ignore[return-value]


def pool_size(jobs: int | None, sizes: Sequence[int], idle: float | None = None) -> int:
    """How many processes to check files of these sizes with (1: no pool).

    `idle`: the cores other work left idle lately (cpuload.py); with the default `jobs`, a
    worker is started for each, beside this process's own core. Explicit `--jobs N` is only a
    maximum, like the default, but does not look at the machine's load.
    """
    limit = default_jobs() if jobs is None else max(1, jobs)
    if limit <= 1 or len(sizes) < 2 or sum(sizes) < POOL_MIN_BYTES:
        return 1
    if jobs is None and idle is not None:
        limit = min(limit, 1 + int(idle + 0.5))  # a core mostly taken is not one to share
        if limit <= 1:
            return 1
    return min(limit, len(sizes))


#: The last reading of idle cores, for a phase that follows a pooled one too closely to read.
_last_idle: float | None = None


def _idle_cores(jobs: int | None) -> float | None:
    """Cores other work leaves idle, read since the command started or the last pool ended
    (a window in which our own helpers ran would count them as other work)."""
    global _last_idle
    if jobs is not None:
        return None
    from dtypelint import cpuload

    idle = cpuload.idle_cores()
    if idle is not None:
        _last_idle = idle
    return _last_idle


def _cached_first(
    items: Sequence[Item],
    config: Config,
    options: RunOptions,
    outcomes: list[FileOutcome | None],
    pending: list[int],
    progress: Progress | None,
) -> list[int]:
    """Fill in the cache hits (files with an entry only); returns the indices still to check."""
    from dtypelint.engine import process_file

    cache = options.cache
    assert cache is not None
    left = []
    cache.computes = False
    try:
        for index in pending:
            path, name = items[index]
            if not cache.has_entry(name):
                left.append(index)
                continue
            try:
                outcomes[index] = process_file(Path(path), name, config, options)
            except CacheMiss:
                left.append(index)
                continue
            if progress is not None:
                progress.advance()
    finally:
        cache.computes = True
    return left


def chunks(pending: Sequence[int], sizes: dict[int, int], workers: int) -> list[list[int]]:
    """Largest first; a chunk holds files until it reaches its share of the bytes."""
    order = sorted(pending, key=lambda index: -sizes[index])
    target = max(1, sum(sizes.values()) // (workers * CHUNKS_PER_WORKER))
    result: list[list[int]] = []
    current: list[int] = []
    weight = 0
    for index in order:
        current.append(index)
        weight += sizes[index]
        if weight >= target:
            result.append(current)
            current, weight = [], 0
    if current:
        result.append(current)
    return result


def _run_pool(
    items: Sequence[Item],
    config: Config,
    options: RunOptions,
    pending: Sequence[int],
    sizes: dict[int, int],
    workers: int,
    outcomes: list[FileOutcome | None],
    progress: Progress | None,
) -> None:
    import gc

    # Objects made so far are never collected in the workers: their collector then leaves the
    # pages they share with this process alone (about 15% less CPU for the workers, measured).
    gc.freeze()
    try:
        _share(items, config, options, chunks(pending, sizes, workers), workers, outcomes, progress)
    finally:
        gc.unfreeze()
        from dtypelint import cpuload

        cpuload.mark()  # the next reading must not count our own helpers as other work


def _share(
    items: Sequence[Item],
    config: Config,
    options: RunOptions,
    work: list[list[int]],
    workers: int,
    outcomes: list[FileOutcome | None],
    progress: Progress | None,
) -> None:
    """This process and `workers - 1` forked helpers take chunks in turn from a shared counter.

    This process works too, rather than wait for a pool: where the other cores turn out to be
    busy, it checks most of the files itself, and the helpers only add what they manage.
    """
    from dtypelint.engine import process_file

    context = _pool_context()
    claimed = context.Value("i", 0)
    results = context.Queue()
    helpers = [
        context.Process(
            target=_helper,
            args=(work, claimed, results, config, options, items),
            daemon=True,
        )
        for _ in range(workers - 1)
    ]
    for helper in helpers:
        helper.start()
    finished: set[int] = set()
    try:
        while (chunk := _claim(claimed, len(work))) is not None:
            for index in work[chunk]:
                path, name = items[index]
                outcomes[index] = process_file(Path(path), name, config, options)
                if progress is not None:
                    progress.advance()
            _receive(results, helpers, finished, outcomes, options, progress, wait=False)
        while len(finished) < len(helpers):
            _receive(results, helpers, finished, outcomes, options, progress, wait=True)
    finally:
        for helper in helpers:
            if helper.is_alive() and helper.pid not in finished:
                helper.terminate()
        for helper in helpers:
            helper.join()
        results.close()


def _claim(claimed: Any, count: int) -> int | None:
    """The next chunk nobody has taken, or None when all are taken."""
    with claimed.get_lock():
        index = int(claimed.value)
        if index >= count:
            return None
        claimed.value = index + 1
    return index


def _helper(
    work: list[list[int]],
    claimed: Any,
    results: Any,
    config: Config,
    options: RunOptions,
    items: Sequence[Item],
) -> None:
    """A forked process: check chunks until none is left, send each chunk's results back."""
    from dtypelint.engine import process_file

    try:
        if options.cache is not None:
            options.cache.take_pending()  # the parent's, if any: it writes them itself
        while (chunk := _claim(claimed, len(work))) is not None:
            done = []
            for index in work[chunk]:
                path, name = items[index]
                done.append((index, process_file(Path(path), name, config, options)))
            stored = options.cache.take_pending() if options.cache is not None else None
            results.put(("done", done, stored))
        results.put(("finished", os.getpid(), None))
    except KeyboardInterrupt:  # Ctrl-C reaches every process; the parent stops the run
        pass
    except BaseException as exc:  # an internal error: the parent raises it
        results.put(("error", _picklable(exc), None))


def _picklable(exc: BaseException) -> BaseException:
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _receive(
    results: Any,
    helpers: Sequence[Any],
    finished: set[int],
    outcomes: list[FileOutcome | None],
    options: RunOptions,
    progress: Progress | None,
    *,
    wait: bool,
) -> None:
    """Take in what the helpers sent: everything there is, or (`wait`) at least one message.

    A helper that ended without saying it finished (killed, crashed) fails the run, as a
    broken pool would, instead of leaving it waiting.
    """
    import queue

    while True:
        try:
            kind, payload, stored = results.get(timeout=0.05) if wait else results.get_nowait()
        except queue.Empty:
            if not wait:
                return
            dead = [h for h in helpers if h.exitcode is not None and h.pid not in finished]
            if dead and results.empty():
                raise RuntimeError(
                    f"a worker process ended unexpectedly (exit code {dead[0].exitcode})"
                ) from None
            continue
        if kind == "error":
            raise payload
        if kind == "finished":
            finished.add(payload)
        else:
            if stored and options.cache is not None:
                options.cache.merge(stored)
            for index, outcome in payload:
                outcomes[index] = outcome
            if progress is not None:
                progress.advance(len(payload))
        if wait:
            return


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _pool_context():  # type: ignore[no-untyped-def]
    import multiprocessing

    # fork is much cheaper to start than spawn, and the workers inherit what the parent built
    # (settings, the project's summaries); the linter runs no threads that fork could break.
    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()
