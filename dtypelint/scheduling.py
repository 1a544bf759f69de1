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
3. With processes, a `WorkerPool` (workers.py) checks the files largest first, in small
   chunks, so that nobody idles while another finishes a big file; its workers die with the
   run, never hold its output, and a worker that dies loses no other file's result. The
   project's summaries (phase 2) reach the workers with the fork, built once.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from dtypelint import interrupts

if TYPE_CHECKING:
    from dtypelint.config import Config
    from dtypelint.engine import FileOutcome, RunOptions
    from dtypelint.progress import Progress

#: Source still to check (bytes) below which one process is faster than a pool. Measured on
#: 2 cores shared with other work (slices of kornia, the command's wall time, median of 9):
#: 256 KB 0.18 s alone, 0.19 s with a pool of 2; 512 KB 0.27 s, 0.22 s; 1 MB 0.50 s, 0.37 s.
POOL_MIN_BYTES = int(os.environ.get("DTYPELINT_POOL_MIN_BYTES", 384 * 1024))  # tests: 0
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
            interrupts.raise_if_stopped()
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

    # A hit runs no analysis (a miss raises before one), so it needs no deep-stack thread
    # (isolation.py); anything else that goes wrong is left to the isolated pass, which reports it.
    look_up = getattr(process_file, "__wrapped__", process_file)
    cache = options.cache
    assert cache is not None
    left = []
    cache.computes = False
    try:
        for index in pending:
            interrupts.raise_if_stopped()
            path, name = items[index]
            if not cache.has_entry(name):
                left.append(index)
                continue
            try:
                outcomes[index] = look_up(Path(path), name, config, options)
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception:  # CacheMiss, or a file that fails: checked (isolated) below
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
    """Check `pending` in a `WorkerPool` (workers.py: they die with the run, never hold its
    output, and a worker that dies loses no other file's result), largest files first."""
    import gc

    from dtypelint.workers import WorkerPool

    order = sorted(pending, key=lambda index: -sizes[index])
    chunksize = max(1, len(order) // (workers * CHUNKS_PER_WORKER))
    # Objects made so far are never collected in the workers: their collector then leaves the
    # pages they share with this process alone (about 15% less CPU for the workers, measured).
    gc.freeze()
    try:
        with WorkerPool(
            max_workers=workers,
            mp_context=_pool_context(),
            initializer=_init_worker,
            initargs=(config, options),
        ) as pool:
            results = pool.map(_check, [items[index] for index in order], chunksize=chunksize)
            for index, result in zip(order, results):
                interrupts.raise_if_stopped()
                # A file whose worker died alone comes back as its DTL901 outcome, no tuple.
                outcome, stored = result if isinstance(result, tuple) else (result, None)
                if stored and options.cache is not None:
                    options.cache.merge(stored)
                outcomes[index] = outcome
                if progress is not None:
                    progress.advance()
    finally:
        gc.unfreeze()
        from dtypelint import cpuload

        cpuload.mark()  # the next reading must not count our own helpers as other work


_worker_state: tuple[Config, RunOptions] | None = None


def _init_worker(config: Config, options: RunOptions) -> None:
    global _worker_state
    _worker_state = (config, options)
    if options.cache is not None:
        options.cache.take_pending()  # the parent's, inherited with the fork: it writes them


def _check(item: Item) -> tuple[FileOutcome, dict[str, dict[str, bytes]] | None]:
    """A worker's file: its outcome, and the cache entries it computed (the parent stores them)."""
    from dtypelint.engine import process_file

    assert _worker_state is not None
    config, options = _worker_state
    path, name = item
    outcome = process_file(Path(path), name, config, options)
    stored = options.cache.take_pending() if options.cache is not None else None
    return outcome, stored


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
