"""Time and peak memory of `dtypelint check` and `--fix` on very large generated files.

Issue 12's bounds: a 20 MB generated file with about 112,000 hazards is checked, and fixed, in at
most 15 s each under 500 MB; a 20 MB data table with one hazard too. Files are generated in a
temporary folder (nothing is committed):

    python benchmarks/fault_bench.py                     # both files, 20 MB, check and --fix
    python benchmarks/fault_bench.py --size-mb 5 --kind hazards
    python benchmarks/fault_bench.py --keep /tmp/big     # keep the files (to profile them)

Each row is one `python -m dtypelint` subprocess: wall seconds and its peak RSS (`wait4`), the
exit code, and the finding counts it printed (`--output-format concise`, `--statistics`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HAZARD_FUNCTION = """

def project_{index}(points: torch.Tensor, scale: float) -> torch.Tensor:
    ones = torch.ones(points.shape[0], 1, device=points.device)
    homo = torch.cat([points, ones], dim=-1)
    return homo * scale
"""


def generate_hazards(path: Path, size: int) -> int:
    """A module of small tensor functions, one DTL001 each; returns how many."""
    with path.open("w", encoding="utf-8") as out:
        out.write('"""Generated: one missing dtype per function."""\nimport torch\n')
        written, index = 0, 0
        while written < size:
            chunk = HAZARD_FUNCTION.format(index=index)
            out.write(chunk)
            written += len(chunk)
            index += 1
    return index


def generate_table(path: Path, size: int) -> int:
    """A data table (a list of float tuples) and one hazard at the end; returns 1."""
    with path.open("w", encoding="utf-8") as out:
        out.write('"""Generated: a large constant table."""\nimport torch\n\nTABLE = [\n')
        written, row = 0, 0
        while written < size:
            line = f"    ({row * 0.5:.3f}, {row * 0.25:.4f}, {row % 97}, {-row * 1.5:.2f}),\n"
            out.write(line)
            written += len(line)
            row += 1
        out.write("]\n")
        out.write(HAZARD_FUNCTION.format(index=0))
    return 1


GENERATORS = {"hazards": generate_hazards, "table": generate_table}


def run(args: list[str], cwd: Path) -> dict[str, object]:
    """One dtypelint run: wall seconds, peak RSS in MB, exit code, last lines of its output."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "dtypelint", *args],
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - started
        out.seek(0)
        tail = out.read().decode("utf-8", "replace").strip().splitlines()[-3:]
    return {
        "seconds": round(seconds, 2),
        "peak_mb": round(usage.ru_maxrss / 1024),  # Linux: kilobytes
        "exit": process.returncode,
        "tail": tail,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size-mb", type=float, default=20.0)
    parser.add_argument("--kind", choices=[*GENERATORS, "all"], default="all")
    parser.add_argument("--keep", type=Path, help="generate the files here and keep them")
    parser.add_argument("--no-fix", action="store_true", help="time `check` only")
    options = parser.parse_args()
    folder = options.keep or Path(tempfile.mkdtemp(prefix="dtypelint-fault-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    kinds = list(GENERATORS) if options.kind == "all" else [options.kind]
    failed = False
    try:
        for kind in kinds:
            path = folder / f"generated_{kind}.py"
            count = GENERATORS[kind](path, int(options.size_mb * 1024 * 1024))
            size = path.stat().st_size / (1024 * 1024)
            print(f"{path.name}: {size:.1f} MB, {count} hazards", flush=True)
            check = run(["check", "--statistics", "--exit-zero", "--isolated", path.name], folder)
            print(f"  check: {check}", flush=True)
            failed |= check["exit"] != 0
            if not options.no_fix:
                fixed = folder / f"fixed_{kind}.py"
                shutil.copyfile(path, fixed)
                fix = run(
                    ["check", "--fix", "--statistics", "--exit-zero", "--isolated", fixed.name],
                    folder,
                )
                print(f"  --fix: {fix}", flush=True)
                again = run(["check", "--statistics", "--isolated", fixed.name], folder)
                print(f"  check after --fix: {again}", flush=True)
                failed |= fix["exit"] != 0
    finally:
        if options.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
