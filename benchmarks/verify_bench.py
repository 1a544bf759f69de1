"""Timing `dtypelint verify`: a generated tree of one-module examples, and the fix log.

    python benchmarks/verify_bench.py                 # 78 examples + the fix log, 3 runs each
    python benchmarks/verify_bench.py --count 200 --repeat 1 --json

Each row is the wall time of a cold `python -m dtypelint verify ... --device cpu` subprocess
(start-up, patching, the three worker processes, the report), min and median of `--repeat`
runs, and whether every verdict is the expected one (see verify_tree.py for the kinds). The
issue's targets on 2 cores: 78 examples in at most 90 s, the fix log in at most 8 s.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import verify_tree  # noqa: E402


def run_verify(cwd: Path, args: list[str]) -> tuple[float, dict[str, Any], int]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    command = [
        sys.executable,
        "-m",
        "dtypelint",
        "verify",
        "--device",
        "cpu",
        "--output-format",
        "json",
        *args,
    ]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if not done.stdout.strip():
        raise SystemExit(f"verify failed in {cwd}: {done.stderr[-2000:]}")
    return seconds, json.loads(done.stdout), done.returncode


def fixlog_project(temp: Path) -> Path:
    """The fix log as a project of its own, as tests/test_verify.py sets it up."""
    base = temp / "fixlog"
    shutil.copytree(REPO / "fixtures" / "fixlog" / "before", base / "before")
    shutil.copy2(REPO / "fixtures" / "fixlog" / "examples.py", base / "examples.py")
    (base / "before" / "pyproject.toml").write_text(
        '[project]\nname = "fixlog"\nversion = "0"\n\n[tool.dtypelint]\n'
    )
    return base / "before"


def measure(
    name: str, cwd: Path, args: list[str], expected: dict[str, str], repeat: int
) -> dict[str, Any]:
    times, wrong = [], {}
    data: dict[str, Any] = {}
    for _ in range(repeat):
        seconds, data, _ = run_verify(cwd, args)
        times.append(seconds)
        got = {Path(e["file"]).name + ":" + e["function"]: e["verdict"] for e in data["examples"]}
        wrong = {
            key: (got.get(key), want) for key, want in expected.items() if got.get(key) != want
        }
    return {
        "name": name,
        "examples": len(data["examples"]),
        "min_s": round(min(times), 2),
        "median_s": round(statistics.median(times), 2),
        "verdicts": dict(Counter(e["verdict"] for e in data["examples"])),
        "unexpected": wrong,
        "worker_processes": data.get("worker_processes"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=78, help="examples in the generated tree")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="JSON on stdout instead of a table")
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="verify-bench-") as temp:
        tree = Path(temp) / "tree"
        kinds = verify_tree.make_tree(tree, options.count)
        expected = {f"{name}:example": verify_tree.EXPECTED[kind] for name, kind in kinds.items()}
        # DTL004's fix is unsafe (it changes float32 results): verify it too, as a user would.
        rows.append(
            measure(f"tree of {options.count}", tree, ["--unsafe-fixes"], expected, options.repeat)
        )
        fixlog = fixlog_project(Path(temp))
        expected = {
            f"examples.py:example_{n}": "confirmed" for n in ("pixel_aligned", "hand_encoder")
        }
        rows.append(
            measure(
                "fix log", fixlog, [".", "--examples", "../examples.py"], expected, options.repeat
            )
        )
    if options.json:
        print(json.dumps({"cpus": os.cpu_count(), "rows": rows}, indent=2))
    else:
        print(f"{'run':<16}{'examples':>9}{'min s':>8}{'median s':>10}  verdicts")
        for row in rows:
            verdicts = ", ".join(f"{n} {v}" for v, n in sorted(row["verdicts"].items()))
            print(
                f"{row['name']:<16}{row['examples']:>9}{row['min_s']:>8}{row['median_s']:>10}  {verdicts}"
            )
            for key, (got, want) in row["unexpected"].items():
                print(f"  unexpected: {key}: {got} (expected {want})")
        print(f"({os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f})")
    return 1 if any(row["unexpected"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
