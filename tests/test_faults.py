"""Issue 12: hostile input and faults. One bad file never sinks a run, interrupts are clean,
standard input keeps its bytes, fixing stays linear, bad settings name file and key.

Most tests run the real command (`python -m dtypelint`) in a subprocess, as a user, an editor or
a CI runner would: signals, closed and full streams, FIFOs and symbolic links are only real there.
"""

from __future__ import annotations

import codecs
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import git

import dtypelint
import dtypelint.scheduling
from dtypelint import fixer
from dtypelint.cli import main
from dtypelint.config import Config
from dtypelint.diagnostics import Applicability, Diagnostic, Edit, Fix, Location
from dtypelint.engine import discover_files, lint_paths

POSIX = os.name == "posix"
needs_posix = pytest.mark.skipif(not POSIX, reason="POSIX signals, FIFOs and file descriptors")

HAZARD = """
def project_{index}(points: torch.Tensor, scale: float) -> torch.Tensor:
    ones = torch.ones(points.shape[0], 1, device=points.device)
    homo = torch.cat([points, ones], dim=-1)
    return homo * scale
"""
FIXED_CALL = "torch.ones(points.shape[0], 1, device=points.device, dtype=points.dtype)"


def module(count: int = 1, header: str = "import torch\n") -> str:
    return header + "".join(HAZARD.format(index=index) for index in range(count))


def dtl(
    *args: str,
    cwd: Path,
    data: bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,
    **popen: object,
) -> subprocess.CompletedProcess[bytes]:
    """`python -m dtypelint ARGS` (bytes in, bytes out)."""
    return subprocess.run(
        [sys.executable, "-m", "dtypelint", *args],
        cwd=cwd,
        input=data,
        capture_output=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        check=False,
        **popen,  # type: ignore[arg-type]
    )


def concise(result: subprocess.CompletedProcess[bytes]) -> list[str]:
    return [
        line
        for line in result.stdout.decode().splitlines()
        if line and not line.startswith(("Found", "[*]", "All checks"))
    ]


# --- 1. per-file isolation --------------------------------------------------------------------

DEEP_CASES = {
    # Valid code that Python compiles, each nested deeper than the default recursion limit allows
    # the analysis to walk (the fault campaign's sizes).
    "plus_chain": "    return ones + " + " + ".join(["points"] * 980) + "\n",
    "elif_chain": "    if scale == 0:\n        ones = ones + points\n"
    + "".join(f"    elif scale == {i}:\n        ones = ones + points\n" for i in range(1, 326))
    + "    return ones\n",
    "attribute_chain": "    return ones + points" + ".real" * 490 + "\n",
    "method_chain": "    return ones + points" + ".abs()" * 490 + "\n",
    "subscript_chain": "    return ones + points" + "[0]" * 490 + "\n",
    "unary_minus": "    return ones + " + "-" * 1000 + "points\n",
    "not_chain": "    flag = " + "not " * 1000 + "points\n    return ones + points\n",
}
DEEP_HEAD = (
    "import torch\n\n\ndef f(points: torch.Tensor, scale: float):\n"
    "    ones = torch.ones(3, device=points.device)\n"
)


def test_deep_code_is_analysed_and_fixed(tmp_path: Path) -> None:
    for name, body in DEEP_CASES.items():
        (tmp_path / f"{name}.py").write_text(DEEP_HEAD + body)
    checked = dtl("--isolated", "--output-format", "concise", ".", cwd=tmp_path)
    assert (checked.returncode, checked.stderr) == (1, b"")
    found = {line.split(":")[0]: line.split(": ", 1)[1].split()[0] for line in concise(checked)}
    assert found == {f"{name}.py": "DTL001" for name in DEEP_CASES}
    fixed = dtl("--isolated", "--fix", "--output-format", "concise", ".", cwd=tmp_path)
    assert (fixed.returncode, fixed.stderr) == (0, b""), fixed.stdout
    for name in DEEP_CASES:
        text = (tmp_path / f"{name}.py").read_text()
        assert "torch.ones(3, device=points.device, dtype=points.dtype)" in text, name


def test_deep_threads_are_reused_and_a_forked_child_starts_its_own() -> None:
    from dtypelint import isolation

    def whoami() -> tuple[int, bool, int]:
        return threading.get_native_id(), isolation.in_deep_thread(), sys.getrecursionlimit()

    limit = sys.getrecursionlimit()
    first, deep, raised = isolation.run_deep(whoami)
    assert deep and raised >= isolation.DEEP_RECURSION_LIMIT
    assert sys.getrecursionlimit() == limit  # restored once the job is done
    with pytest.raises(ValueError, match="boom"):
        isolation.run_deep(int, "boom")
    # One thread per file cost a millisecond each: the same thread runs the next file.
    assert isolation.run_deep(whoami)[0] == first
    if not hasattr(os, "fork"):
        return
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the parent's idle deep thread does not exist here: waiting on it would hang
        os.close(read)
        signal.alarm(20)
        ident = isolation.run_deep(whoami)[0]
        os.write(write, b"new" if ident != first else b"old")
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        answer = pipe.read()
    os.waitpid(child, 0)
    assert answer == b"new"


@pytest.mark.parametrize(
    ("source", "cause"),
    [
        # The parser's own RecursionError: a chain far longer than anything it builds a tree for.
        ("x = " + " + ".join(["a"] * 300_000) + "\n", "RecursionError"),
        # The parser's stack overflow (a MemoryError on Python 3.11, SyntaxError elsewhere).
        (
            "if a:\n    pass\n" + "".join(f"elif a == {i}:\n    pass\n" for i in range(20_000)),
            "",
        ),
    ],
    ids=["recursion", "parser-stack"],
)
def test_code_deeper_than_the_parser_accepts_is_dtl000(source: str, cause: str) -> None:
    (finding,) = dtypelint.lint_source(source, "deep.py")
    assert finding.code == "DTL000"
    assert cause in finding.message


def _failing_analysis(monkeypatch: pytest.MonkeyPatch, name: str, error: BaseException) -> None:
    import dtypelint.analysis

    real = dtypelint.analysis.ModuleAnalysis

    def analysis(
        tree: object, source: object, filename: str, *args: object, **kwargs: object
    ) -> object:
        if filename.endswith(name):
            raise error
        return real(tree, source, filename, *args, **kwargs)

    monkeypatch.setattr(dtypelint.analysis, "ModuleAnalysis", analysis)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_one_failing_file_does_not_sink_the_run(
    in_tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    jobs: str,
) -> None:
    """31 files, one whose analysis raises: it is DTL901 (and an error line, exit 2); the other 30
    are fixed and reported."""
    for index in range(31):
        (in_tmp / f"m{index:02}.py").write_text(module(2))
    _failing_analysis(monkeypatch, "m13.py", MemoryError())
    monkeypatch.setattr(dtypelint.scheduling, "POOL_MIN_BYTES", 0)  # a pool with --jobs 2
    code = main(["--isolated", "--fix", "--output-format", "json", "--jobs", jobs, "."])
    out, err = capsys.readouterr()
    assert code == 2
    findings = json.loads(out)
    assert [(Path(f["filename"]).name, f["code"]) for f in findings] == [("m13.py", "DTL901")]
    assert "MemoryError" in findings[0]["message"]
    assert err.splitlines() == ["error: m13.py: internal error in the analysis: MemoryError()"]
    for index in range(31):
        text = (in_tmp / f"m{index:02}.py").read_text()
        assert (FIXED_CALL in text) == (index != 13)


@needs_posix
def test_a_worker_killed_on_one_file_loses_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that dies (the system's out-of-memory killer, a crash in C code) while checking a
    file: that file is DTL901, every other file's results are there."""
    for index in range(24):
        (tmp_path / f"m{index:02}.py").write_text(module(1))
    main_process = os.getpid()

    import dtypelint.analysis

    real = dtypelint.analysis.ModuleAnalysis

    def analysis(
        tree: object, source: object, filename: str, *args: object, **kwargs: object
    ) -> object:
        if filename.endswith("m07.py") and os.getpid() != main_process:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(tree, source, filename, *args, **kwargs)

    monkeypatch.setattr(dtypelint.analysis, "ModuleAnalysis", analysis)
    monkeypatch.setattr(dtypelint.scheduling, "POOL_MIN_BYTES", 0)  # small files, still a pool
    outcomes = lint_paths(discover_files([str(tmp_path)], Config()), Config(), jobs=2)
    codes = {Path(o.filename).name: [d.code for d in o.diagnostics] for o in outcomes}
    assert codes.pop("m07.py") == ["DTL901"]
    assert set(map(tuple, codes.values())) == {("DTL001",)} and len(codes) == 23
    crashed = next(o for o in outcomes if o.filename.endswith("m07.py"))
    # The exit status is named when it could be read (`killed by SIGKILL, perhaps by the system
    # for lack of memory`); another thread of the pool may reap the process first.
    assert "the worker process checking this file died" in crashed.diagnostics[0].message


def test_failures_while_reading_fixing_and_reporting_are_findings_on_their_file(
    in_tmp: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a.py", "b_read.py", "c_fix.py"):
        (in_tmp / name).write_text(module(1))
    import dtypelint.engine
    import dtypelint.render_full

    real_read, real_fix = dtypelint.engine.read_source, dtypelint.engine.fix_linted
    real_render = dtypelint.render_full.render

    def read_source(path: Path, *args: object) -> object:
        if str(path).endswith("b_read.py"):
            raise LookupError("unknown codec")
        return real_read(path, *args)

    def fix_linted(source: str, diagnostics: list, filename: str, *args: object) -> object:
        if filename.endswith("c_fix.py"):
            raise ValueError("fix failed")
        return real_fix(source, diagnostics, filename, *args)

    def render(diagnostic: Diagnostic, *args: object) -> list[str]:
        if diagnostic.filename.endswith("d_report.py") and diagnostic.code != "DTL901":
            raise UnicodeError("cannot render")
        return real_render(diagnostic, *args)

    monkeypatch.setattr(dtypelint.engine, "read_source", read_source)
    monkeypatch.setattr(dtypelint.engine, "fix_linted", fix_linted)
    monkeypatch.setattr(dtypelint.render_full, "render", render)
    code = main(["--isolated", "--fix", "--jobs", "1", "."])
    out, err = capsys.readouterr()
    assert code == 2
    assert "All checks passed" not in out
    assert "b_read.py:1:1" in out and "c_fix.py:1:1" in out
    assert "Internal error while checking this file: LookupError: unknown codec" in out
    assert "Internal error while fixing this file: ValueError: fix failed" in out
    assert FIXED_CALL in (in_tmp / "a.py").read_text()
    assert FIXED_CALL not in (in_tmp / "c_fix.py").read_text()  # left exactly as it was
    assert [line.split(":")[1] for line in err.splitlines()] == [" b_read.py", " c_fix.py"]

    # A file whose findings cannot be rendered: its DTL901 instead, the others as usual.
    (in_tmp / "d_report.py").write_text(module(1))
    (in_tmp / "e.py").write_text(module(1))
    code = main(["--isolated", "--jobs", "1", "d_report.py", "e.py"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "Internal error while reporting this file: UnicodeError: cannot render" in out
    assert " --> e.py:4:12" in out and "Found 2 errors." in out
    assert err.startswith("error: d_report.py: internal error while reporting: UnicodeError")


# --- 2. discovery and reading -------------------------------------------------------------------


@pytest.fixture
def odd_tree(tmp_path: Path) -> Iterator[Path]:
    """A tree with one real file and a FIFO, a socket, /dev/zero, a broken link and a link loop,
    all named `*.py`."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.py").write_text(module(1))
    os.mkfifo(tree / "fifo.py")
    (tree / "zero.py").symlink_to("/dev/zero")
    (tree / "dangling.py").symlink_to("gone.py")
    (tree / "loop.py").symlink_to("loop.py")
    (tree / "sub").mkdir()
    (tree / "sub" / "self").symlink_to("..")  # a folder loop: never walked into twice
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tree / "sock.py"))
    except OSError:  # a path too long for a socket: test without one
        server.close()
        server = None
    try:
        yield tree
    finally:
        if server is not None:
            server.close()


@needs_posix
@pytest.mark.parametrize("with_git", [False, True], ids=["walk", "git"])
def test_walked_folders_skip_special_files_and_report_broken_links(
    odd_tree: Path, with_git: bool
) -> None:
    if with_git:
        git(odd_tree, "init", "-q")
    result = dtl("--isolated", "--output-format", "concise", ".", cwd=odd_tree, timeout=30)
    assert result.returncode == 1, result.stderr  # findings, not a failed run
    assert result.stderr == b""
    assert concise(result) == [
        "dangling.py:1:1: DTL900 Broken symbolic link: `gone.py` does not exist (os error 2)",
        "good.py:4:12: DTL001 [*] torch.ones(...) defaults to float32 but meets 'points'; "
        "add dtype=points.dtype",
        "loop.py:1:1: DTL900 Too many levels of symbolic links (os error 40)",
    ]


@needs_posix
def test_special_files_named_explicitly_are_skipped_with_a_finding(odd_tree: Path) -> None:
    names = ["fifo.py", "zero.py", "dangling.py", "loop.py", "good.py"]
    if (odd_tree / "sock.py").exists():
        names.append("sock.py")
    result = dtl("--isolated", "--output-format", "concise", *names, cwd=odd_tree, timeout=30)
    assert result.returncode == 1 and result.stderr == b""
    lines = concise(result)
    assert "fifo.py:1:1: DTL900 Not a regular file (a FIFO); skipped" in lines
    assert "zero.py:1:1: DTL900 Not a regular file (a character device); skipped" in lines
    if "sock.py" in names:
        assert "sock.py:1:1: DTL900 Not a regular file (a socket); skipped" in lines
    assert sum("DTL001" in line for line in lines) == 1


@needs_posix
@pytest.mark.parametrize("output_format", ["full", "json", "sarif", "junit", "github"])
def test_file_names_that_are_not_utf8_are_reported_and_fixed(
    tmp_path: Path, output_format: str
) -> None:
    try:
        with open(os.path.join(os.fsencode(tmp_path), b"caf\xe9.py"), "w") as handle:
            handle.write(module(1))
    except OSError:
        pytest.skip("the file system refuses names that are not UTF-8")
    result = dtl("--isolated", "--output-format", output_format, ".", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (1, b"")
    fixed = dtl("--isolated", "--fix", ".", cwd=tmp_path)
    assert (fixed.returncode, fixed.stderr) == (0, b"")


@needs_posix
def test_add_noqa_passes_over_what_it_cannot_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "m.py").write_text(module(1))
    result = dtl("--isolated", "--add-noqa", "fifo.py", "m.py", cwd=tmp_path, timeout=30)
    assert result.returncode == 2  # a file that was not read is never a pass
    assert result.stderr.decode().splitlines() == [
        "error: fifo.py: Not a regular file (a FIFO); skipped",
        "Added 1 noqa directive.",
    ]
    assert "# noqa: DTL001" in (tmp_path / "m.py").read_text()


def test_max_file_size(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text(module(3))  # about 600 bytes
    (tmp_path / "small.py").write_text(module(1))
    result = dtl(
        "--isolated",
        "--config",
        "max-file-size = 400",
        "--output-format",
        "concise",
        ".",
        cwd=tmp_path,
    )
    lines = concise(result)
    assert lines[0].startswith(
        "big.py:1:1: DTL900 File too large to check (",
    ) and lines[0].endswith("over `max-file-size` = 400 bytes); skipped")
    assert [line.split()[1] for line in lines] == ["DTL900", "DTL001"]
    unlimited = dtl(
        "--isolated", "--config", "max-file-size = 0", "--statistics", ".", cwd=tmp_path
    )
    assert unlimited.stdout.decode().split("\t")[0] == "4"
    bad = dtl("--isolated", "--config", "max-file-size = 'huge'", ".", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.decode().startswith("error: --config: `max-file-size` must be a number")


def test_a_file_that_vanishes_mid_run_is_a_finding_on_it(tmp_path: Path) -> None:
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(module(1))
    files = discover_files([str(tmp_path)], Config())
    (tmp_path / "a.py").unlink()  # after discovery, before it is read
    outcomes = lint_paths(files, Config(), jobs=1)
    assert [[d.code for d in o.diagnostics] for o in outcomes] == [["DTL900"], ["DTL001"]]
    assert outcomes[0].diagnostics[0].message == "No such file or directory (os error 2)"


# --- 3. interrupts and process hygiene -----------------------------------------------------------

INTERRUPT_FILES, INTERRUPT_HAZARDS = 18, 80


@pytest.fixture(scope="module")
def interrupt_tree(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, dict[str, str], float]:
    """A tree worth a couple of seconds of `--fix`, and what every file is once fully fixed."""
    tree = tmp_path_factory.mktemp("interrupt") / "tree"
    tree.mkdir()
    for index in range(INTERRUPT_FILES):
        (tree / f"m{index:02}.py").write_text(module(INTERRUPT_HAZARDS))
    done = tree.parent / "done"
    shutil.copytree(tree, done)
    started = time.perf_counter()
    fixed = dtl("--isolated", "--fix", "--jobs", "2", ".", cwd=done)
    assert fixed.returncode == 0, fixed.stderr
    seconds = time.perf_counter() - started
    return tree, {path.name: path.read_text() for path in done.glob("*.py")}, seconds


def _marked_processes(marker: str) -> list[int]:
    """Processes (ours) whose environment holds `marker`: the run and its workers."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


class _EndedEarly(Exception):
    """The run finished before the signal was sent: try again with a shorter delay."""


def _interrupt(
    tree: Path,
    expected: dict[str, str],
    work: Path,
    jobs: str,
    signum: int,
    delay: float,
    group: bool = False,
) -> None:
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(tree, work)
    originals = {path.name: path.read_text() for path in work.glob("*.py")}
    marker = f"DTYPELINT_FAULT_TEST={uuid.uuid4().hex}"
    process = subprocess.Popen(
        [sys.executable, "-m", "dtypelint", "--isolated", "--fix", "-v", "--jobs", jobs, "."],
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={
            **os.environ,
            marker.split("=")[0]: marker.split("=")[1],
            "DTYPELINT_POOL_MIN_BYTES": "0",  # workers even for a small tree
        },
        start_new_session=group,
    )
    assert process.stderr is not None
    # Signal once the run is under way (files found), at a random moment of its work.
    while b"Identified" not in process.stderr.readline():
        assert process.poll() is None, "the run ended before it started checking"
    stderr_rest: list[bytes] = []
    reader = threading.Thread(target=lambda: stderr_rest.append(process.stderr.read()))  # type: ignore[union-attr]
    reader.start()
    time.sleep(delay)
    if process.poll() is not None:  # a machine faster now than for the fixture's run
        reader.join(5)
        raise _EndedEarly()
    sent = time.time()
    if group:  # Ctrl-C in a terminal: the whole process group, workers included
        os.killpg(process.pid, signum)
    else:  # `timeout`, a CI runner: the main process only
        process.send_signal(signum)
    try:
        process.wait(timeout=5)
    finally:
        if process.poll() is None:
            process.kill()
    stopped = time.time() - sent
    reader.join(5)
    if process.returncode == -signum and b"Checked " in b"".join(stderr_rest):
        # The signal came after the work, while the interpreter was exiting (the handlers are
        # gone by then): the shell reports 128 + signal all the same.
        raise _EndedEarly()
    assert process.stdout is not None
    process.stdout.read()  # EOF: nobody holds the run's output any more
    process.stdout.close()
    left = [p for p in work.iterdir() if p.name.endswith(".dtypelint-tmp")]
    assert left == [], left
    changed = 0
    for path in sorted(work.glob("*.py")):
        text = path.read_text()
        assert text in (originals[path.name], expected[path.name]), f"{path.name} half-fixed"
        if text != originals[path.name]:
            changed += 1
            assert path.stat().st_mtime <= sent + 0.5, f"{path.name} written after the signal"
    if signum == signal.SIGKILL:
        assert process.returncode == -signal.SIGKILL
    else:
        code = {signal.SIGINT: 130, signal.SIGTERM: 143}[signal.Signals(signum)]
        assert process.returncode == code, (process.returncode, stderr_rest)
        assert stopped < 1.0, f"took {stopped:.2f} s to stop"
    deadline = time.time() + 1.5
    while _marked_processes(marker) and time.time() < deadline:
        time.sleep(0.05)
    assert _marked_processes(marker) == [], "a worker outlived the run"


@needs_posix
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds leftover workers through /proc")
@pytest.mark.parametrize(
    ("jobs", "signum"),
    [
        ("1", signal.SIGINT),
        ("1", signal.SIGTERM),
        ("2", signal.SIGINT),
        ("2", signal.SIGTERM),
        ("2", signal.SIGKILL),
        ("2g", signal.SIGINT),
    ],
    ids=["j1-int", "j1-term", "j2-int", "j2-term", "j2-kill", "j2-group-int"],
)
def test_interrupts_stop_the_run_cleanly(
    interrupt_tree: tuple[Path, dict[str, str], float], tmp_path: Path, jobs: str, signum: int
) -> None:
    """Interrupt a real `--fix` at a random moment: exit 130/143 within a second, every file old
    or fully fixed, none written after the signal, no temporary file, no surviving worker."""
    tree, expected, seconds = interrupt_tree
    seed = int(os.environ.get("DTYPELINT_INTERRUPT_SEED", random.randrange(1 << 30)))
    # Within the run's work: after start-up (about a third of an uninterrupted run), before its end.
    delay = random.Random(seed).uniform(0.0, 0.4 * seconds)
    print(f"DTYPELINT_INTERRUPT_SEED={seed} (signal after {delay:.2f} s)")
    group = jobs.endswith("g")
    for _ in range(4):
        try:
            _interrupt(tree, expected, tmp_path / "work", jobs.rstrip("g"), signum, delay, group)
            return
        except _EndedEarly:
            delay /= 3
    pytest.fail("the run always ended before the signal: make the tree larger")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@needs_posix
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="looks at the worker through /proc")
def test_an_idle_worker_stops_at_once_on_sigterm() -> None:
    """A worker waiting for work dies of SIGTERM at once (it is forked from a thread that blocks
    the stop signals; it must not inherit that mask, or the run waits for its grace period)."""
    import multiprocessing

    from dtypelint.workers import WorkerPool

    pool = WorkerPool(1, mp_context=multiprocessing.get_context("fork"))
    try:
        pid = pool.submit(os.getpid).result()
        os.kill(pid, signal.SIGTERM)
        # Dead: gone, or a zombie (the pool's own thread may reap it before or after we look).
        deadline = time.monotonic() + 0.5
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not _alive(pid)
    finally:
        pool.stop()


@needs_posix
def test_an_interrupt_lost_on_its_way_still_stops_the_run(tmp_path: Path) -> None:
    """Python drops an exception raised inside a finalizer: a Ctrl-C that lands there must still
    stop the run before the next file (it once went on, every write refused, and exited 2)."""
    from dtypelint import interrupts
    from dtypelint.config import Config
    from dtypelint.engine import RunOptions
    from dtypelint.interrupts import handling_signals, stopping
    from dtypelint.scheduling import run_items

    items = []
    for index in range(3):
        (tmp_path / f"m{index}.py").write_text(module(2))
        items.append((str(tmp_path / f"m{index}.py"), f"m{index}.py"))
    try:
        with handling_signals():
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.1)  # the handler runs here
            except KeyboardInterrupt:
                pass  # lost, as in a finalizer
            assert stopping()
            with pytest.raises(KeyboardInterrupt):
                run_items(items, Config(), RunOptions(fix=True), jobs=1)
    finally:
        interrupts._stopping.clear()  # a run in this process stays stopped: the next test's isn't
    assert [p.read_text() for p in sorted(tmp_path.glob("*.py"))] == [module(2)] * 3


def test_the_temporary_file_is_removed_on_any_exception(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(fixer.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        fixer.write_atomic(path, "x = 2\n", "utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["m.py"]
    assert path.read_text() == "x = 1\n"


def test_a_file_changed_during_the_run_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An editor saves the file while `--fix` checks it: the fixes made from the old text are
    not written over the new one; the run says so and goes on with the other files."""
    import dtypelint.engine

    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(module(1))
    real = dtypelint.engine.process_decoded

    def edited_meanwhile(decoded, filename, config, options):  # type: ignore[no-untyped-def]
        outcome = real(decoded, filename, config, options)
        if filename.endswith("a.py") and options.fix:  # the pass that writes, after its read
            (tmp_path / "a.py").write_text(module(1) + "# saved by the editor\n")
        return outcome

    monkeypatch.setattr(dtypelint.engine, "process_decoded", edited_meanwhile)
    monkeypatch.chdir(tmp_path)
    from dtypelint.cli import main

    code = main(["--isolated", "--no-cache", "--fix", "--jobs", "1", "a.py", "b.py"])
    assert (tmp_path / "a.py").read_text() == module(1) + "# saved by the editor\n"
    assert FIXED_CALL in (tmp_path / "b.py").read_text()
    assert code == 2  # an error: a file was left unfixed
    assert "a.py: fixes not written: the file changed while it was being checked" in (
        capsys.readouterr().err
    )


def test_long_file_names_can_be_fixed(tmp_path: Path) -> None:
    name = "m" * 250 + ".py"  # 253 characters: the longest names most file systems allow
    try:
        (tmp_path / name).write_text(module(1))
    except OSError:
        pytest.skip("the file system does not allow 253-character names")
    result = dtl("--isolated", "--fix", name, cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, b"")
    assert FIXED_CALL in (tmp_path / name).read_text()


# --- 4. standard input: bytes in, bytes out ---------------------------------------------------------

LATIN1 = '# -*- coding: latin-1 -*-\nimport torch\nNAME = "café"\n'.encode("latin-1")


@pytest.mark.parametrize(
    "data",
    [
        LATIN1,
        codecs.BOM_UTF8 + b"import torch\r\nNAME = 'caf\xc3\xa9'\r\n",
        b"import torch\rx = 1\n\r\ny = 2",  # mixed line endings, no final newline
        b"x = '\xff'\n",  # not UTF-8: DTL000, echoed back unchanged
        b"",
    ],
    ids=["latin-1-cookie", "bom-crlf", "mixed-endings", "undecodable", "empty"],
)
@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_stdin_without_fixes_comes_back_byte_for_byte(
    tmp_path: Path, data: bytes, encoding: str
) -> None:
    result = dtl(
        "--isolated", "--fix", "-", cwd=tmp_path, data=data, env={"PYTHONIOENCODING": encoding}
    )
    assert result.stdout == data
    assert b"internal error" not in result.stderr


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_fixed_stdin_keeps_encoding_bom_and_line_endings(tmp_path: Path, encoding: str) -> None:
    source = module(1).replace("import torch\n", 'import torch\nNAME = "café"\n')
    latin = ("# -*- coding: latin-1 -*-\n" + source).encode("latin-1")
    result = dtl(
        "--isolated", "--fix", "-", cwd=tmp_path, data=latin, env={"PYTHONIOENCODING": encoding}
    )
    assert result.returncode == 0
    assert result.stdout.decode("latin-1") == ("# -*- coding: latin-1 -*-\n" + source).replace(
        "torch.ones(points.shape[0], 1, device=points.device)", FIXED_CALL
    )
    crlf = codecs.BOM_UTF8 + source.replace("\n", "\r\n").encode("utf-8")
    result = dtl(
        "--isolated", "--fix", "-", cwd=tmp_path, data=crlf, env={"PYTHONIOENCODING": encoding}
    )
    assert result.stdout.startswith(codecs.BOM_UTF8)
    assert result.stdout.count(b"\r\n") == crlf.count(b"\r\n")
    assert FIXED_CALL.encode() in result.stdout and "café".encode() in result.stdout


def test_reports_survive_an_ascii_terminal(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(module(1).replace("scale: float", "scalé: float"))
    result = dtl("--isolated", "m.py", cwd=tmp_path, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 1 and result.stderr == b""
    assert b"scal\\xe9" in result.stdout  # escaped, not an encoding error


@needs_posix
@pytest.mark.parametrize(
    ("args", "close", "message"),
    [
        (["--fix", "-"], 0, b"error: cannot read standard input: it is closed\n"),
        (["--fix", "-"], 1, b"error: cannot write to standard output: it is closed\n"),
        (["m.py"], 1, b"error: cannot write to standard output: it is closed\n"),
    ],
    ids=["closed-stdin", "closed-stdout", "closed-stdout-check"],
)
def test_closed_streams_are_one_line(
    tmp_path: Path, args: list[str], close: int, message: bytes
) -> None:
    (tmp_path / "m.py").write_text(module(1))
    result = subprocess.run(
        [sys.executable, "-m", "dtypelint", "--isolated", *args],
        cwd=tmp_path,
        input=module(1).encode() if close != 0 else None,
        stdout=subprocess.PIPE if close != 1 else None,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.close(close),
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (2, message)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["--fix", "-"], ["m.py"]], ids=["stdin", "check"])
def test_a_full_standard_output_is_one_line(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "m.py").write_text(module(1))
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "dtypelint", "--isolated", *args],
            cwd=tmp_path,
            input=module(1).encode(),
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    assert (result.returncode, result.stderr) == (
        2,
        b"error: cannot write to standard output: No space left on device (os error 28)\n",
    )


@needs_posix
def test_a_full_output_file_and_a_fifo_baseline_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(module(1))
    if Path("/dev/full").exists():
        result = dtl("--isolated", "-o", "/dev/full", "m.py", cwd=tmp_path)
        assert (result.returncode, result.stderr) == (
            2,
            b"error: --output-file /dev/full: cannot write: No space left on device (os error 28)\n",
        )
    os.mkfifo(tmp_path / "baseline.json")
    result = dtl("--isolated", "--baseline", "baseline.json", "m.py", cwd=tmp_path, timeout=30)
    assert (result.returncode, result.stderr) == (
        2,
        b"error: baseline baseline.json: cannot read: Not a regular file (a FIFO); skipped\n",
    )


# --- 5. linear cost ------------------------------------------------------------------------------


def _insertions(count: int) -> tuple[str, list[Diagnostic]]:
    source = "".join(f"x{index} = f()\n" for index in range(count))
    findings = []
    for index in range(count):
        at = Location(index + 1, len(f"x{index} = f(") + 1)
        edit = Edit("1", at, at)
        fix = Fix(Applicability.SAFE, "add 1", (edit,))
        findings.append(Diagnostic("DTL001", "x", "m", "m.py", at, at, fix))
    return source, findings


def test_applying_fixes_grows_linearly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each fix is checked against its neighbours only: the number of conflict tests grows with
    the fixes (4x the fixes, about 4x the tests), not with their square (16x)."""
    calls = 0
    real = fixer._conflict

    def counting(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
        nonlocal calls
        calls += 1
        return real(a, b)

    monkeypatch.setattr(fixer, "_conflict", counting)
    counts = []
    for count in (1000, 4000):
        calls = 0
        source, findings = _insertions(count)
        fixed, applied = fixer.apply_fixes(source, findings, unsafe=False)
        assert len(applied) == count and fixed.count("f(1)") == count
        counts.append(calls)
    assert counts[1] <= 4.5 * counts[0], counts


def test_one_breaking_fix_among_thousands_costs_a_few_parses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source, findings = _insertions(2000)
    at = findings[700].location  # this one would make `x700 = f()` into `x700 = f(1(`
    findings[700] = Diagnostic(
        "DTL001", "x", "m", "m.py", at, at, Fix(Applicability.SAFE, "bad", (Edit("1(", at, at),))
    )
    parses = 0
    real = fixer.parse_error

    def counting(text: str) -> SyntaxError | None:
        nonlocal parses
        parses += 1
        return real(text)

    monkeypatch.setattr(fixer, "parse_error", counting)
    result = fixer.FixResult(source, remaining=findings)
    kept_source, kept = fixer._without_breaking_fixes(result, findings, False, set(), "m.py")
    assert len(kept) == 1999 and "f(1(" not in kept_source and kept_source.count("f(1)") == 1999
    assert parses <= 2 * 11 + 2, parses  # about 2 log2(n), not n
    assert len(result.warnings) == 1 and result.warnings[0].startswith("m.py:701:")


def test_diffs_of_large_files_are_linear_and_apply() -> None:
    from dtypelint import diffs
    from dtypelint.engine import unified_diff

    before = "".join(f"x{i} = torch.zeros({i})\n" for i in range(30_000))
    after = before.replace("torch.zeros(7", "torch.zeros(7, dtype=x.dtype").replace(
        "x29999 = torch.zeros(29999)\n", "x29999 = torch.zeros(29999)\ny = 1\n"
    )
    started = time.perf_counter()
    text = unified_diff(before, after, "m.py")
    assert time.perf_counter() - started < 5  # difflib: minutes
    small_before, small_after = before[:2000], after[: after.index("x80 ")]
    fast = list(diffs.diff_lines(small_before.splitlines(True), small_after.splitlines(True), "m"))
    import difflib

    slow = list(
        difflib.unified_diff(small_before.splitlines(True), small_after.splitlines(True), "m", "m")
    )
    assert fast == slow  # small files: difflib itself
    old = before.splitlines(True)
    new: list[str] = []
    position = 0
    lines = text.splitlines(True)[2:]
    for line in lines:  # apply the diff: it must give the fixed text back
        if line.startswith("@@"):
            start = int(line.split()[1][1:].split(",")[0]) - 1
            new += old[position:start]
            position = start
        elif line.startswith(" "):
            new.append(old[position])
            position += 1
        elif line.startswith("-"):
            position += 1
        else:
            new.append(line[1:])
    assert "".join(new + old[position:]) == after


def test_overlapping_and_identical_fixes_are_still_sorted_out() -> None:
    source = "abcdef\n"
    at = Location(1, 2)

    def finding(content: str, start: int, end: int, code: str = "DTL001") -> Diagnostic:
        edit = Edit(content, Location(1, start), Location(1, end))
        return Diagnostic(code, "x", "m", "m.py", at, at, Fix(Applicability.SAFE, content, (edit,)))

    findings = [
        finding("X", 2, 4),  # replaces "bc"
        finding("X", 2, 4, "DTL002"),  # the same edit: applied together
        finding("Y", 3, 5),  # overlaps the first: left for the next pass
        finding("Z", 4, 4),  # an insertion right after it: fine
        finding("W", 6, 6),
    ]
    fixed, applied = fixer.apply_fixes(source, findings, unsafe=False)
    assert fixed == "aXZdeWf\n"
    assert [d.fix.message for d in applied if d.fix] == ["X", "X", "Z", "W"]


def test_keyword_insertion_without_libcst_matches_libcst(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path for one-line calls gives exactly libcst's edit."""
    import ast

    from dtypelint import codemod
    from dtypelint.source import SourceText

    calls = [
        "torch.ones(3)",
        "torch.ones()",
        "torch.zeros(a, b, device=x.device)",
        "torch.full((2, 3), 1.5)",
        "torch.arange(n, **kwargs)",
        "torch.rand(*shape)",
        "torch.ones( 3 )",
        "torch.ones(3,)",
        "torch.ones(3, # c\n)",
        "torch.ones(\n    3,\n)",
        "torch.ones((3))",
        "torch.tensor(x for x in y)",
        "f(g(1), h[2])",
        "torch.ones(3)  ",
        "torch.ones(3)\t",
    ]
    for call in calls:
        text = SourceText(f"y = {call}\n")
        node = ast.parse(text.text).body[0].value  # type: ignore[attr-defined]
        fast = codemod.insert_keyword(text, node, "dtype", "x.dtype")
        with monkeypatch.context() as patch:
            patch.setattr(codemod, "_appended", lambda *args: None)
            slow = codemod.insert_keyword(text, node, "dtype", "x.dtype")
        assert fast == slow, call


# --- 6. configuration ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "body", "key"),
    [
        ("pyproject.toml", b'tool = "dtypelint"\n', "`tool`"),
        ("pyproject.toml", b"# dtypelint settings\ntool = 5\n", "`tool`"),
        ("pyproject.toml", b"# caf\xe9\n[tool.dtypelint]\n", "not UTF-8"),
        ("pyproject.toml", b"[tool]\ndtypelint = 5\n", "`tool.dtypelint`"),
        ("pyproject.toml", b"[[tool.dtypelint]]\nselect = []\n", "`tool.dtypelint`"),
        ("pyproject.toml", b"[tool.dtypelint]\nx = " + b"[" * 3000 + b"]" * 3000 + b"\n", "nested"),
        ("pyproject.toml", b"[tool.dtypelint]\nselect = 'DTL001'\n", "`select`"),
        ("pyproject.toml", b"[tool.dtypelint]\nscope = []\n", "`scope`"),
        ("pyproject.toml", b"[tool.dtypelint]\noutput-format = {}\n", "`output-format`"),
        ("pyproject.toml", b"[tool.dtypelint]\nper-file-ignores = []\n", "`per-file-ignores`"),
        ("pyproject.toml", b"[tool.dtypelint]\nverify = 3\n", "`verify`"),
        ("pyproject.toml", b"[tool.dtypelint]\nmax-file-size = true\n", "`max-file-size`"),
        ("pyproject.toml", b"[tool.dtypelint.verify]\nexamples = 'a.py'\n", "`examples`"),
        ("pyproject.toml", b"[tool.dtypelint.verify]\ndevice = []\n", "`device`"),
        ("dtypelint.toml", b"select = " + b"[" * 3000 + b"]" * 3000 + b"\n", "nested"),
        ("dtypelint.toml", b"unsafe-fixes = 'yes'\n", "`unsafe-fixes`"),
        ("dtypelint.toml", b"camera-names = [1]\n", "`camera-names`"),
    ],
)
def test_malformed_settings_are_one_line_naming_file_and_key(
    in_tmp: Path, capsys: pytest.CaptureFixture[str], name: str, body: bytes, key: str
) -> None:
    (in_tmp / name).write_bytes(body)
    (in_tmp / "m.py").write_text("x = 1\n")
    code = main(["m.py"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    (line,) = err.splitlines()
    assert line.startswith(f"error: {in_tmp / name}: ") and key in line, line
    assert "internal error" not in line


def test_an_empty_selection_is_refused_or_said(
    in_tmp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (in_tmp / "m.py").write_text(module(1))
    assert main(["--isolated", "--select", "", "m.py"]) == 2
    assert capsys.readouterr().err.startswith('error: --select "" selects no rule')
    assert main(["--isolated", "--ignore", "DTL0", "m.py"]) == 0
    assert capsys.readouterr().err.startswith("warning: no rule is selected")


# --- 7. syntax newer than the running Python ---------------------------------------------------------

PEP_695 = "import torch\n\n\ndef scale[T](x: T) -> T:\n    return x * torch.ones(3)\n"


def test_newer_syntax_is_dtl902_not_dtl000() -> None:
    found = dtypelint.lint_source(PEP_695, "m.py")
    if sys.version_info >= (3, 12):
        assert "DTL000" not in {d.code for d in found} and "DTL902" not in {d.code for d in found}
        return
    assert [(d.code, d.location.row) for d in found] == [("DTL902", 4)]
    assert found[0].message.startswith("Needs Python 3.12 to analyse: the file uses PEP 695")
    broken = PEP_695.replace("-> T:", "-> T")  # PEP 695 and a real syntax error: DTL000
    assert [d.code for d in dtypelint.lint_source(broken, "m.py")] == ["DTL000"]
    assert dtypelint.fix_source(PEP_695, "m.py").source == PEP_695


def test_rule_pages_list_the_engine_codes() -> None:
    from dtypelint.docs import rule_page

    for code in ("DTL901", "DTL902"):
        page = rule_page(code)
        assert page is not None and "## Fix safety" in page
