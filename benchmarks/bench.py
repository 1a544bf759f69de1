"""Throughput benchmark: dtypelint against the cost of parsing a corpus.

Measures, on a folder of Python files (a corpus such as an unpacked kornia wheel):

* ``ast.parse`` of every file in a process pool (reference: the cheapest parse),
* ``libcst.parse_module`` of every file in a process pool (dtypelint's parser: the floor),
* a cold ``dtypelint check CORPUS --exit-zero --output-format concise --jobs N`` subprocess,
* ``ruff check --select ALL --exit-zero`` (reference, when ruff is installed).

Every measurement is wall time, the median of ``--repeat`` runs; the pool and
subprocess start-up are included, as a user would see them. The script never
imports torch (nor dtypelint: the linter runs as a subprocess).

Then the targets of issue 9, on a copy of the corpus, each repetition running every row once
(interleaved, so that a busy moment of the machine hits all rows alike):

* ``ruff check --no-cache --select ALL`` (default threads) and a libcst parse of every file;
* ``dtypelint check``: ``--no-cache`` with the default ``--jobs`` and with ``-j 1``; with an
  empty cache; rerun with nothing changed (warm); with one file changed (a comment appended to
  the median-sized file);
* the CPU time (user + system, of the process and its children) of one small file checked by
  the console script with an empty cache, with ``ruff check`` and ``python -c pass`` beside it.

``--scaling`` times ``-j 1`` against a pool (forced) and the default on growing slices of the
corpus: where a pool starts to pay is ``scheduling.POOL_MIN_BYTES``.

Usage: ``python benchmarks/bench.py /work/corpora/kornia --jobs 2 --repeat 3 [--json]``
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

# Folder names skipped while walking a corpus (ruff's default excludes, roughly).
EXCLUDED_DIRS = frozenset(
    {
        ".bzr",
        ".direnv",
        ".eggs",
        ".git",
        ".hg",
        ".mypy_cache",
        ".nox",
        ".pants.d",
        ".ruff_cache",
        ".svn",
        ".tox",
        ".venv",
        "__pycache__",
        "__pypackages__",
        "_build",
        "buck-out",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        "venv",
    }
)
SOURCE_SUFFIXES = (".py", ".pyi")
CHUNK_SIZE = 16


@dataclass
class Corpus:
    root: Path
    files: list[Path]
    lines: int
    size_bytes: int


@dataclass
class Measurement:
    name: str
    command: str
    seconds: list[float] = field(default_factory=list)
    ok: bool = True
    note: str = ""

    @property
    def median(self) -> float | None:
        return statistics.median(self.seconds) if self.seconds else None


# --------------------------------------------------------------------------- corpus


def collect_files(root: Path) -> list[Path]:
    """All ``*.py``/``*.pyi`` files under ``root`` (or ``root`` itself), sorted."""
    if root.is_file():
        return [root]
    found: list[Path] = []
    for folder, subdirs, filenames in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if d not in EXCLUDED_DIRS)
        found.extend(Path(folder, name) for name in filenames if name.endswith(SOURCE_SUFFIXES))
    return sorted(found)


def load_corpus(root: Path) -> Corpus:
    files = collect_files(root)
    lines = 0
    size = 0
    for path in files:
        data = path.read_bytes()
        size += len(data)
        lines += data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return Corpus(root=root, files=files, lines=lines, size_bytes=size)


# --------------------------------------------------------------------------- parse workers


def parse_with_ast(path: str) -> bool:
    """Parse one file with ``ast``; True on success."""
    try:
        ast.parse(Path(path).read_bytes(), filename=path)
    except (SyntaxError, ValueError):
        return False
    return True


def parse_with_libcst(path: str) -> bool:
    """Parse one file with ``libcst.parse_module``; True on success."""
    import libcst  # imported in the worker, so that --no-libcst runs need no libcst

    try:
        libcst.parse_module(Path(path).read_bytes())
    except Exception:  # libcst raises ParserSyntaxError, and a few others on odd input
        return False
    return True


def time_pool_parse(
    worker: Callable[[str], bool], files: Sequence[Path], jobs: int
) -> tuple[float, int]:
    """Wall time to parse every file in a fresh pool of ``jobs`` processes, and the failures."""
    paths = [str(path) for path in files]
    start = time.perf_counter()
    if jobs <= 1:
        results = [worker(path) for path in paths]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(worker, paths, chunksize=CHUNK_SIZE))
    elapsed = time.perf_counter() - start
    return elapsed, results.count(False)


def measure_parser(
    name: str, worker: Callable[[str], bool], corpus: Corpus, jobs: int, repeat: int
) -> Measurement:
    measurement = Measurement(name=name, command=f"{worker.__name__} in {jobs} processes")
    failures = 0
    for _ in range(repeat):
        seconds, failures = time_pool_parse(worker, corpus.files, jobs)
        measurement.seconds.append(seconds)
    if failures:
        measurement.note = f"{failures} files failed to parse"
    return measurement


# --------------------------------------------------------------------------- subprocess tools


def run_timed(command: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, int, str]:
    """Run ``command`` with stdout discarded; wall time, exit code and the tail of stderr."""
    start = time.perf_counter()
    completed = subprocess.run(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )
    elapsed = time.perf_counter() - start
    stderr = completed.stderr.decode(errors="replace").strip().splitlines()
    return elapsed, completed.returncode, " | ".join(stderr[-3:])


def count_output_lines(command: Sequence[str]) -> int:
    """Number of lines ``command`` prints on stdout (findings, for concise output)."""
    completed = subprocess.run(command, capture_output=True, check=False)
    return len(completed.stdout.splitlines())


def dtypelint_base_command(override: str | None) -> list[str] | None:
    """The command that starts dtypelint, or None when it cannot be started."""
    candidates: list[list[str]] = []
    if override:
        candidates.append(shlex.split(override))
    candidates.append([sys.executable, "-m", "dtypelint"])
    script = Path(sys.executable).with_name("dtypelint")
    if script.exists():
        candidates.append([str(script)])
    for command in candidates:
        probe = subprocess.run([*command, "--version"], capture_output=True, check=False)
        if probe.returncode == 0:
            return command
    return None


def accepts_option(base: Sequence[str], subcommand: str, option: str) -> bool:
    """Whether ``base subcommand --help`` mentions ``option``."""
    completed = subprocess.run([*base, subcommand, "--help"], capture_output=True, check=False)
    return option in completed.stdout.decode(errors="replace")


def measure_dtypelint(
    corpus: Corpus, jobs: int, repeat: int, override: str | None, extra_args: Sequence[str]
) -> Measurement:
    base = dtypelint_base_command(override)
    if base is None:
        return Measurement("dtypelint check", "", ok=False, note="dtypelint cannot be started")
    args = ["check", str(corpus.root), "--exit-zero", "--output-format", "concise"]
    args += ["--jobs", str(jobs), *extra_args]
    cold = accepts_option(base, "check", "--no-cache")
    if cold:
        args.append("--no-cache")
    command = [*base, *args]
    measurement = Measurement("dtypelint check", shlex.join(command))
    measure_command(measurement, command, repeat)
    if measurement.ok:
        findings = count_output_lines(command)
        measurement.note = f"{findings} output lines" + ("" if cold else "; cache state unknown")
    return measurement


def measure_ruff(corpus: Corpus, jobs: int, repeat: int) -> Measurement | None:
    ruff = shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        return None
    command = [ruff, "check", "--isolated", "--no-cache", "--select", "ALL", "--exit-zero"]
    command += ["--output-format", "concise", "--quiet", str(corpus.root)]
    measurement = Measurement("ruff check --select ALL", shlex.join(command))
    env = {**os.environ, "RAYON_NUM_THREADS": str(jobs)}  # ruff's thread pool
    measure_command(measurement, command, repeat, env)
    return measurement


def measure_command(
    measurement: Measurement,
    command: Sequence[str],
    repeat: int,
    env: dict[str, str] | None = None,
) -> None:
    for _ in range(repeat):
        seconds, code, stderr = run_timed(command, env)
        if code != 0:
            measurement.ok = False
            measurement.note = f"exit {code}: {stderr}"
            return
        measurement.seconds.append(seconds)


# --------------------------------------------------------------------------- report


def per_second(count: int, seconds: float | None) -> float | None:
    return count / seconds if seconds else None


def ratio_to(measurement: Measurement, reference: Measurement | None) -> float | None:
    if reference is None or measurement.median is None or not reference.median:
        return None
    return measurement.median / reference.median


def find_measurement(measurements: Iterable[Measurement], name: str) -> Measurement | None:
    return next((m for m in measurements if m.name == name), None)


def build_report(
    corpus: Corpus, measurements: Iterable[Measurement], jobs: int, repeat: int
) -> dict:
    measurements = list(measurements)
    libcst_parse = find_measurement(measurements, "libcst.parse_module")
    ast_parse = find_measurement(measurements, "ast.parse")
    dtypelint = find_measurement(measurements, "dtypelint check")
    rows = []
    for m in measurements:
        row = asdict(m)
        row.update(
            median_seconds=m.median,
            files_per_second=per_second(len(corpus.files), m.median),
            lines_per_second=per_second(corpus.lines, m.median),
            ratio_to_libcst_parse=ratio_to(m, libcst_parse),
            ratio_to_ast_parse=ratio_to(m, ast_parse),
        )
        rows.append(row)
    return {
        "corpus": str(corpus.root),
        "files": len(corpus.files),
        "lines": corpus.lines,
        "bytes": corpus.size_bytes,
        "jobs": jobs,
        "repeat": repeat,
        "python": platform.python_version(),
        "cpu_count": os.cpu_count(),
        "results": rows,
        "dtypelint_over_libcst_parse": ratio_to(dtypelint, libcst_parse) if dtypelint else None,
        "dtypelint_over_ast_parse": ratio_to(dtypelint, ast_parse) if dtypelint else None,
    }


def format_number(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def format_table(report: dict) -> str:
    header = (
        f"corpus {report['corpus']}: {report['files']} files, {report['lines']:,} lines; "
        f"jobs {report['jobs']}, median of {report['repeat']}"
    )
    lines = [header, ""]
    lines.append(
        f"{'tool':<26}{'seconds':>9}{'files/s':>10}{'lines/s':>11}{'x libcst':>10}{'x ast':>8}  note"
    )
    for row in report["results"]:
        lines.append(
            f"{row['name']:<26}"
            f"{format_number(row['median_seconds'], '.2f'):>9}"
            f"{format_number(row['files_per_second'], ',.0f'):>10}"
            f"{format_number(row['lines_per_second'], ',.0f'):>11}"
            f"{format_number(row['ratio_to_libcst_parse'], '.2f'):>10}"
            f"{format_number(row['ratio_to_ast_parse'], '.2f'):>8}"
            f"  {row['note']}"
        )
    over_libcst = report["dtypelint_over_libcst_parse"]
    over_ast = report["dtypelint_over_ast_parse"]
    if over_libcst is not None and over_ast is not None:
        lines += ["", f"dtypelint / libcst-parse: {over_libcst:.2f}x, / ast-parse: {over_ast:.2f}x"]
    return "\n".join(lines)


# --------------------------------------------------------------------------- targets (issue 9)


def run_cpu(
    command: Sequence[str], env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[float, float, int]:
    """Run `command` (output discarded): its CPU seconds (user + system), wall seconds, exit."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start, process.returncode


def find_ruff() -> str | None:
    return shutil.which("ruff") or shutil.which("ruff", path=str(Path(sys.executable).parent))


def median_sized(files: Sequence[Path]) -> Path:
    ordered = sorted(files, key=lambda path: (path.stat().st_size, str(path)))
    return ordered[len(ordered) // 2]


def pick_small_file(corpus: Corpus) -> Path:
    """A small file a pre-commit run would check: 1 to 4 KB, using torch, median of those."""
    small = [
        path
        for path in corpus.files
        if 1024 <= path.stat().st_size <= 4096 and b"torch" in path.read_bytes()
    ]
    return median_sized(small or corpus.files)


@dataclass
class Row(Measurement):
    """A target row: a measurement of wall time, or of CPU time (`kind="cpu"`)."""

    kind: str = "wall"  # or "cpu"


def measure_targets(corpus: Corpus, args: argparse.Namespace) -> dict:
    """The issue's rows, interleaved, on a copy of the corpus (one file of it gets edited)."""
    base = dtypelint_base_command(args.dtypelint_cmd)
    script = Path(sys.executable).with_name("dtypelint")
    ruff = find_ruff()
    if base is None:
        return {"rows": [], "note": "dtypelint cannot be started"}
    work = Path(tempfile.mkdtemp(prefix="dtypelint-bench-"))
    try:
        tree = work / "corpus"
        if corpus.root.is_dir():
            shutil.copytree(corpus.root, tree, symlinks=True)
        else:
            tree.mkdir()
            shutil.copy2(corpus.root, tree / corpus.root.name)
        files = collect_files(tree)
        changed = median_sized(files)
        small = args.small_file.resolve() if args.small_file else None
        if small is None:
            small = tree / pick_small_file(corpus).relative_to(corpus.root)
        return _interleaved(args, base, script, ruff, work, tree, files, changed, small)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _interleaved(
    args: argparse.Namespace,
    base: list[str],
    script: Path,
    ruff: str | None,
    work: Path,
    tree: Path,
    files: list[Path],
    changed: Path,
    small: Path,
) -> dict:
    cache = work / "cache"
    env = {key: value for key, value in os.environ.items() if key != "DTYPELINT_NO_CACHE"}
    env["DTYPELINT_CACHE_DIR"] = str(cache)
    check = [*base, "check", "--exit-zero", "--output-format", "concise"]
    original = changed.read_bytes()
    edits = iter(range(1, 1_000_000))

    def timed(command: Sequence[str], before: Callable[[], object] | None = None) -> Callable:
        def run() -> tuple[float, int]:
            if before is not None:
                before()
            seconds, code, _ = run_timed(command, env)
            return seconds, code

        return run

    def cpu(command: Sequence[str], fresh_cache: Path | None = None) -> Callable:
        def run() -> tuple[float, int]:
            if fresh_cache is not None:
                shutil.rmtree(fresh_cache, ignore_errors=True)
            seconds, _, code = run_cpu(
                command, {**env, "DTYPELINT_CACHE_DIR": str(fresh_cache or cache)}, tree
            )
            return seconds, code

        return run

    def libcst_parse() -> tuple[float, int]:
        seconds, _ = time_pool_parse(parse_with_libcst, files, os.cpu_count() or 1)
        return seconds, 0

    def edit() -> None:
        changed.write_bytes(original + f"\n# bench edit {next(edits)}\n".encode())

    small_cache = work / "cache-small"
    console = [str(script)] if script.exists() else base
    rows: list[tuple[Row, Callable[[], tuple[float, int]]]] = []
    if ruff is not None:
        ruff_tree = [ruff, "check", "--isolated", "--no-cache", "--select", "ALL", "--exit-zero"]
        ruff_tree += ["--output-format", "concise", "--quiet", str(tree)]
        rows.append(
            (Row("ruff check --no-cache --select ALL", shlex.join(ruff_tree)), timed(ruff_tree))
        )
    rows.append((Row("libcst.parse_module (pool)", "parse_with_libcst, all cores"), libcst_parse))
    for name, extra, before in [
        ("dtypelint --no-cache (default jobs)", ["--no-cache"], None),
        ("dtypelint --no-cache -j 1", ["--no-cache", "-j", "1"], None),
        ("dtypelint, empty cache", [], lambda: shutil.rmtree(cache, ignore_errors=True)),
        ("dtypelint, warm cache", [], None),
        ("dtypelint, one file changed", [], edit),
    ]:
        command = [*check, *extra, str(tree)]
        rows.append((Row(name, shlex.join(command)), timed(command, before)))
    one = [*console, "check", "--exit-zero", str(small)]
    rows.append(
        (Row("one small file, empty cache", shlex.join(one), kind="cpu"), cpu(one, small_cache))
    )
    if ruff is not None:
        ruff_one = [ruff, "check", "--isolated", "--no-cache", "--select", "ALL", "--exit-zero"]
        ruff_one.append(str(small))
        rows.append((Row("ruff, one small file", shlex.join(ruff_one), kind="cpu"), cpu(ruff_one)))
    bare = [sys.executable, "-c", "pass"]
    rows.append((Row("python -c pass", shlex.join(bare), kind="cpu"), cpu(bare)))
    progress(f"targets: {len(rows)} rows x {args.repeat}, interleaved ...")
    for _ in range(args.repeat):
        for row, run in rows:
            if not row.ok:
                continue
            seconds, code = run()
            if code != 0:
                row.ok, row.note = False, f"exit {code}"
            else:
                row.seconds.append(seconds)
    changed.write_bytes(original)
    return _judge([row for row, _ in rows], small, changed, tree)


def _judge(rows: list[Row], small: Path, changed: Path, tree: Path) -> dict:
    by_name = {row.name: row for row in rows}
    ruff = by_name.get("ruff check --no-cache --select ALL")
    limits: dict[str, tuple[str, Callable[[float], bool]]] = {
        "dtypelint, warm cache": ("<= 0.30 s", lambda m: m <= 0.30),
        "dtypelint, one file changed": ("<= 0.40 s", lambda m: m <= 0.40),
        "one small file, empty cache": ("<= 0.10 s CPU", lambda m: m <= 0.10),
    }
    if ruff is not None and ruff.median:
        for name in ("dtypelint --no-cache (default jobs)", "dtypelint, empty cache"):
            limits[name] = ("<= 2x ruff", lambda m, r=ruff.median: m <= 2 * r)
    single = by_name["dtypelint --no-cache -j 1"].median
    result = []
    for row in rows:
        entry = asdict(row) | {"median_seconds": row.median, "limit": "", "met": None}
        if ruff is not None and ruff.median and row.median and row.kind == "wall":
            entry["ratio_to_ruff"] = row.median / ruff.median
        if row.name in limits and row.median is not None:
            entry["limit"], check = limits[row.name]
            entry["met"] = check(row.median)
        if row.name == "dtypelint --no-cache (default jobs)" and single and row.median:
            entry["note"] = (entry["note"] + f" {row.median / single:.2f}x of -j 1").strip()
        result.append(entry)
    return {
        "rows": result,
        "small_file": str(small.relative_to(tree) if small.is_relative_to(tree) else small),
        "small_file_bytes": small.stat().st_size,
        "changed_file": str(changed.relative_to(tree)),
    }


def format_targets(targets: dict) -> str:
    lines = [
        f"issue 9 targets (small file: {targets.get('small_file')}, "
        f"{targets.get('small_file_bytes')} bytes; changed: {targets.get('changed_file')})",
        "",
        f"{'row':<38}{'median':>9}{'x ruff':>8}  {'limit':<15}{'met':<5} note",
    ]
    for row in targets.get("rows", []):
        unit = " cpu" if row["kind"] == "cpu" else ""
        ratio = row.get("ratio_to_ruff")
        met = "" if row["met"] is None else ("yes" if row["met"] else "NO")
        lines.append(
            f"{row['name']:<38}"
            f"{format_number(row['median_seconds'], '.3f'):>9}"
            f"{format_number(ratio, '.2f'):>8}  "
            f"{row['limit'] + unit if row['limit'] else '':<15}{met:<5} {row['note']}"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- scaling


SCALING_KB = (16, 32, 64, 128, 256, 512, 1024, 2048)
FORCED_POOL = (
    "import sys, dtypelint.scheduling as s; s.POOL_MIN_BYTES = 0; "
    "from dtypelint.cli import main; sys.exit(main(sys.argv[1:]))"
)


def measure_scaling(corpus: Corpus, args: argparse.Namespace) -> list[dict]:
    """-j 1, a pool of --jobs (forced) and the default on slices of the corpus, interleaved."""
    rows = []
    work = Path(tempfile.mkdtemp(prefix="dtypelint-scaling-"))
    env = {**os.environ, "DTYPELINT_NO_CACHE": "1"}
    try:
        ordered = sorted(corpus.files)
        total = sum(path.stat().st_size for path in ordered)
        for size_kb in [*(kb for kb in SCALING_KB if kb * 1024 < total), total // 1024]:
            folder = work / f"slice-{size_kb}"
            taken = 0
            for path in ordered:
                if taken >= size_kb * 1024:
                    break
                target = folder / path.relative_to(corpus.root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
                taken += path.stat().st_size
            check = ["check", "--exit-zero", "--output-format", "concise", str(folder)]
            commands = {
                "-j 1": [sys.executable, "-m", "dtypelint", *check, "-j", "1"],
                f"pool of {args.jobs}": [
                    sys.executable,
                    "-c",
                    FORCED_POOL,
                    *check,
                    "-j",
                    str(args.jobs),
                ],
                "default": [sys.executable, "-m", "dtypelint", *check],
            }
            times: dict[str, list[float]] = {name: [] for name in commands}
            for _ in range(args.repeat):
                for name, command in commands.items():
                    times[name].append(run_timed(command, env)[0])
            medians = {name: statistics.median(values) for name, values in times.items()}
            rows.append({"kb": taken // 1024, "files": len(list(folder.rglob("*.py")))} | medians)
            progress(f"scaling {taken // 1024} KB: {medians}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def format_scaling(rows: list[dict]) -> str:
    if not rows:
        return ""
    names = [key for key in rows[0] if key not in ("kb", "files")]
    lines = ["scaling (median wall seconds, no cache)", ""]
    lines.append(f"{'KB':>6}{'files':>7}" + "".join(f"{name:>12}" for name in names))
    for row in rows:
        lines.append(
            f"{row['kb']:>6}{row['files']:>7}" + "".join(f"{row[name]:>12.3f}" for name in names)
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", metavar="CORPUS", type=Path, help="folder of .py files")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per tool; median (default 3)")
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        metavar="FILE",
        help="write the report as JSON to FILE, or alone: print JSON instead of the table",
    )
    parser.add_argument("--no-dtypelint", action="store_true", help="skip the dtypelint run")
    parser.add_argument("--no-ruff", action="store_true", help="skip the ruff reference run")
    parser.add_argument(
        "--no-targets", action="store_true", help="skip the targets of issue 9 (cache, one file)"
    )
    parser.add_argument(
        "--targets-only", action="store_true", help="only the targets of issue 9 (and ruff)"
    )
    parser.add_argument(
        "--scaling", action="store_true", help="also time -j 1 against a pool on corpus slices"
    )
    parser.add_argument(
        "--small-file",
        type=Path,
        metavar="FILE",
        help="the file for the one-file CPU time (default: a 1-4 KB torch file of the corpus)",
    )
    parser.add_argument(
        "--dtypelint-cmd",
        metavar="CMD",
        help="command that starts dtypelint (default: this Python's `-m dtypelint`)",
    )
    parser.add_argument(
        "--dtypelint-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for `dtypelint check` (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.jobs < 1:
        parser.error("--repeat and --jobs must be at least 1")
    if not args.corpus.exists():
        parser.error(f"no such corpus: {args.corpus}")
    return args


def precompile_dtypelint() -> str:
    """Byte-compile dtypelint's own modules, as `pip install` does for a regular install.

    An editable install compiles them at first import, but not where PYTHONDONTWRITEBYTECODE is
    set (CI images, sandboxes): every run would then compile ~20,000 lines of the analysis before
    checking anything (about 0.12 s a run, measured), which no installed copy pays. libcst and
    ruff, the references, come compiled. Finds the package without importing it.
    """
    import importlib.util

    spec = importlib.util.find_spec("dtypelint")
    if spec is None or not spec.submodule_search_locations:
        return "dtypelint not importable here: bytecode left as it is"
    folder = next(iter(spec.submodule_search_locations))
    completed = subprocess.run(
        [sys.executable, "-m", "compileall", "-q", folder], capture_output=True, check=False
    )
    return f"bytecode of {folder} compiled (exit {completed.returncode})"


def run_benchmarks(args: argparse.Namespace, corpus: Corpus) -> list[Measurement]:
    progress(f"{len(corpus.files)} files, {corpus.lines:,} lines under {corpus.root}")
    progress(precompile_dtypelint())
    measurements: list[Measurement] = []
    if args.targets_only:
        return measurements
    progress("ast.parse ...")
    measurements.append(measure_parser("ast.parse", parse_with_ast, corpus, args.jobs, args.repeat))
    progress("libcst.parse_module ...")
    measurements.append(
        measure_parser("libcst.parse_module", parse_with_libcst, corpus, args.jobs, args.repeat)
    )
    if not args.no_dtypelint:
        progress("dtypelint check ...")
        measurements.append(
            measure_dtypelint(
                corpus, args.jobs, args.repeat, args.dtypelint_cmd, args.dtypelint_arg
            )
        )
    if not args.no_ruff:
        progress("ruff check ...")
        ruff = measure_ruff(corpus, args.jobs, args.repeat)
        if ruff is not None:
            measurements.append(ruff)
    return measurements


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    corpus = load_corpus(args.corpus.resolve())
    if not corpus.files:
        progress(f"no .py files under {corpus.root}")
        return 2
    report = build_report(corpus, run_benchmarks(args, corpus), args.jobs, args.repeat)
    if not args.no_targets:
        report["targets"] = measure_targets(corpus, args)
    if args.scaling:
        report["scaling"] = measure_scaling(corpus, args)
    report["load_average"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    if args.json == "-":
        print(json.dumps(report, indent=2))
    else:
        print(format_table(report))
        if "targets" in report:
            print("\n" + format_targets(report["targets"]))
        if "scaling" in report:
            print("\n" + format_scaling(report["scaling"]))
        print(f"\nload average at the end: {report['load_average']}")
        if args.json:
            Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    failed = [row["name"] for row in report["results"] if not row["ok"]]
    failed += [row["name"] for row in report.get("targets", {}).get("rows", []) if not row["ok"]]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
