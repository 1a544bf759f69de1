"""How a phase's files are run (dtypelint/scheduling.py): a pool only when it pays, largest files
first in chunks, cache hits never sent to a worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from dtypelint import scheduling
from dtypelint.cache import Cache
from dtypelint.config import Config
from dtypelint.engine import discover_files, lint_paths

SOURCE = "import torch\n\n\ndef f(x: torch.Tensor):\n    return x * torch.zeros(3)\n"


def test_one_process_unless_the_work_pays_for_a_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduling, "default_jobs", lambda: 4)
    big = scheduling.POOL_MIN_BYTES
    assert scheduling.pool_size(None, [100] * 50) == 1  # 5 KB: forking costs more
    assert scheduling.pool_size(None, [big]) == 1  # one file: nothing to share
    assert scheduling.pool_size(None, [big, big, big]) == 3
    assert scheduling.pool_size(None, [big] * 10) == 4
    assert scheduling.pool_size(2, [big] * 10) == 2
    assert scheduling.pool_size(1, [big] * 10) == 1  # --jobs 1: never a pool
    monkeypatch.setattr(scheduling, "default_jobs", lambda: 1)
    assert scheduling.pool_size(None, [big] * 10) == 1  # one core


def test_no_pool_where_other_work_keeps_the_cores_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduling, "default_jobs", lambda: 4)
    big = [scheduling.POOL_MIN_BYTES] * 10
    assert scheduling.pool_size(None, big, idle=0.2) == 1  # another worker would share a core
    assert scheduling.pool_size(None, big, idle=0.6) == 2
    assert scheduling.pool_size(None, big, idle=2.7) == 4
    assert scheduling.pool_size(None, big, idle=None) == 4  # unknown: the cores
    assert scheduling.pool_size(3, big, idle=0.0) == 3  # --jobs is the user's call


def test_idle_cores_are_read_from_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from dtypelint import cpuload

    start = cpuload.sample()
    if start is None:
        pytest.skip("no /proc/stat here")
    ticks = os.sysconf("SC_CLK_TCK")
    # As if the command had started a second ago, with 1.5 cores' worth of idle ticks since.
    monkeypatch.setattr(cpuload, "_mark", (start[0] - 1.0, start[1] - int(1.5 * ticks)))
    idle = cpuload.idle_cores()
    assert idle is not None and 1.4 < idle < 1.6 + (os.cpu_count() or 1)
    cpuload.mark()
    assert cpuload.idle_cores() is None  # too short a window to tell
    monkeypatch.setattr(cpuload, "_mark", None)
    assert cpuload.idle_cores() is None


def test_chunks_go_largest_first_and_cover_every_file_once() -> None:
    sizes = dict(enumerate([5, 900, 40, 40, 3000, 7, 600] * 20 + [50_000]))
    chunks = scheduling.chunks(list(sizes), sizes, workers=2)
    flat = [index for chunk in chunks for index in chunk]
    assert sorted(flat) == sorted(sizes)
    assert [sizes[index] for index in flat] == sorted(sizes.values(), reverse=True)
    assert chunks[0] == [140]  # the largest file alone
    assert 8 <= len(chunks) <= 2 * scheduling.CHUNKS_PER_WORKER + 2
    assert len(chunks[-1]) > 1  # small files travel together


def test_a_pool_and_one_process_give_the_same_results(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for index in range(30):
        (in_tmp / f"m{index:02}.py").write_text(SOURCE if index % 3 else "print(1)\n")
    files = discover_files(["."], Config())
    serial = lint_paths(files, Config(), jobs=1)
    monkeypatch.setattr(scheduling, "POOL_MIN_BYTES", 0)
    started = []
    real = scheduling._run_pool
    monkeypatch.setattr(
        scheduling, "_run_pool", lambda *args: (started.append(args[5]), real(*args))[1]
    )
    parallel = lint_paths(files, Config(), jobs=2)
    assert started == [2]
    assert [(o.filename, o.diagnostics, o.lines) for o in parallel] == [
        (o.filename, o.diagnostics, o.lines) for o in serial
    ]


def test_cache_hits_are_never_sent_to_a_pool(in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for index in range(30):
        (in_tmp / f"m{index:02}.py").write_text(SOURCE.replace("3", str(index + 1)))
    files = discover_files(["."], Config())
    monkeypatch.setattr(scheduling, "POOL_MIN_BYTES", 0)
    cache = Cache.for_run(in_tmp / "cache", Config(), ())
    first = lint_paths(files, Config(), jobs=2, cache=cache)  # cold: a pool fills the cache
    (in_tmp / "m07.py").write_text(SOURCE.replace("zeros", "ones"))

    def no_pool(*args: object) -> None:
        raise AssertionError("a pool was started for one file")

    monkeypatch.setattr(scheduling, "_run_pool", no_pool)
    cache = Cache.for_run(in_tmp / "cache", Config(), ())
    second = lint_paths(files, Config(), jobs=2, cache=cache)
    assert cache.hits == 29
    assert [o.diagnostics for o in second][:7] == [o.diagnostics for o in first][:7]
    assert "torch.ones" in second[7].diagnostics[0].message


def test_a_worker_that_raises_fails_the_run_and_one_that_dies_is_reported_per_file(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither hangs the run: an exception escaping the engine is raised here; a worker process
    that dies loses no other file's result, and the files it died on are DTL901
    (workers.WorkerPool)."""
    import os

    import dtypelint.engine

    for index in range(6):
        (in_tmp / f"m{index:02}.py").write_text(SOURCE)
    files = discover_files(["."], Config())
    parent = os.getpid()
    real = dtypelint.engine.process_file
    failure = {"kind": "raises"}

    def flaky(*args: object, **kwargs: object) -> object:
        if os.getpid() == parent:
            return real(*args, **kwargs)  # type: ignore[arg-type]
        if failure["kind"] == "exits":
            os._exit(3)
        raise ValueError("boom in a helper")

    monkeypatch.setattr(dtypelint.engine, "process_file", flaky)
    monkeypatch.setattr(scheduling, "POOL_MIN_BYTES", 0)
    with pytest.raises(ValueError, match="boom in a helper"):
        lint_paths(files, Config(), jobs=2)
    failure["kind"] = "exits"
    outcomes = lint_paths(files, Config(), jobs=2)
    assert [[d.code for d in o.diagnostics] for o in outcomes] == [["DTL901"]] * 6
    # (the exit code itself is not always readable once the pool is broken)
    assert all("worker process" in o.diagnostics[0].message for o in outcomes)


def test_a_phase_right_after_a_pool_reuses_the_last_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Phase 2's window would be phase 1, when our own helpers kept the cores busy."""
    from dtypelint import cpuload

    readings = iter([0.9, None])
    monkeypatch.setattr(cpuload, "idle_cores", lambda: next(readings))
    monkeypatch.setattr(scheduling, "_last_idle", None)
    assert scheduling._idle_cores(None) == 0.9
    assert scheduling._idle_cores(None) == 0.9  # too short to read: the last reading
    assert scheduling._idle_cores(2) is None  # --jobs: not read at all
