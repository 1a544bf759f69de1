"""Overhead of `dtypelint trace` on a CPU bf16 model forward.

    python benchmarks/trace_bench.py                     # both models, 5 alternating runs
    python benchmarks/trace_bench.py --repeat 3 --json

For each model it runs the same script untraced (`python fwd.py`) and traced
(`dtypelint trace -- python fwd.py`), alternating, and reports the min and median wall time
of the whole command (Python start-up and `import torch` included, as a user sees it) and of
the forward loop alone (timed inside the script), with traced/untraced ratios. The outputs
must be identical: tracing never changes results. The issue's bound: at most 2x.

Models: `vit` (4 pre-norm transformer blocks, width 192, 197 tokens, batch 8: the kind of
model the recorder is meant for) and `tiny` (width 64, 16 tokens: kernels of a few
microseconds, where the recorder's per-call cost shows most).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

SCRIPT = """
import sys, time
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(width)
        self.attn = nn.MultiheadAttention(width, 4, batch_first=True)
        self.norm2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


width, tokens, batch, iterations = (int(a) for a in sys.argv[1:5])
torch.manual_seed(0)
model = nn.Sequential(*[Block(width) for _ in range(4)]).to(torch.bfloat16).eval()
x = torch.randn(batch, tokens, width, dtype=torch.bfloat16)
started = time.perf_counter()
with torch.no_grad():
    for _ in range(iterations):
        y = model(x)
print(f"forward_s {time.perf_counter() - started:.4f}")
print(f"checksum {y.float().sum().item():.6f}")
"""
MODELS = {"vit": ("192", "197", "8", "10"), "tiny": ("64", "16", "2", "200")}


def run(command: list[str]) -> tuple[float, float, str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    lines = (done.stdout + done.stderr).splitlines()
    forward = next(float(line.split()[1]) for line in lines if line.startswith("forward_s"))
    checksum = next(line for line in lines if line.startswith("checksum"))
    return wall, forward, checksum


def measure(script: Path, model: str, repeat: int) -> dict[str, Any]:
    args = [sys.executable, str(script), *MODELS[model]]
    traced = [sys.executable, "-m", "dtypelint", "trace", "--", *args]
    plain_runs, traced_runs = [], []
    for _ in range(repeat):  # alternate, so load from elsewhere hits both alike
        plain_runs.append(run(args))
        traced_runs.append(run(traced))
    checksums = {r[2] for r in plain_runs + traced_runs}

    def summary(runs: list[tuple[float, float, str]], index: int) -> dict[str, float]:
        values = [r[index] for r in runs]
        return {"min": round(min(values), 3), "median": round(statistics.median(values), 3)}

    row = {
        "model": model,
        "command_s": {"untraced": summary(plain_runs, 0), "traced": summary(traced_runs, 0)},
        "forward_s": {"untraced": summary(plain_runs, 1), "traced": summary(traced_runs, 1)},
        "same_results": len(checksums) == 1,
    }
    for key in ("command_s", "forward_s"):
        row[key]["ratio_min"] = round(row[key]["traced"]["min"] / row[key]["untraced"]["min"], 2)
        row[key]["ratio_median"] = round(
            row[key]["traced"]["median"] / row[key]["untraced"]["median"], 2
        )
    return row


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--model", choices=[*MODELS, "all"], default="all")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    models = list(MODELS) if options.model == "all" else [options.model]
    with tempfile.TemporaryDirectory(prefix="trace-bench-") as temp:
        script = Path(temp) / "fwd.py"
        script.write_text(SCRIPT)
        rows = [measure(script, model, options.repeat) for model in models]
    if options.json:
        print(json.dumps({"cpus": os.cpu_count(), "rows": rows}, indent=2))
        return 0 if all(row["same_results"] for row in rows) else 1
    print(
        f"{'model':<6}{'what':<9}{'untraced min/med s':>20}{'traced min/med s':>18}{'ratio min/med':>15}"
    )
    for row in rows:
        for key, label in (("command_s", "command"), ("forward_s", "forward")):
            part = row[key]
            plain = f"{part['untraced']['min']}/{part['untraced']['median']}"
            traced = f"{part['traced']['min']}/{part['traced']['median']}"
            ratio = f"{part['ratio_min']}/{part['ratio_median']}"
            print(f"{row['model']:<6}{label:<9}{plain:>20}{traced:>18}{ratio:>15}")
        print(f"{'':<6}same results traced and untraced: {row['same_results']}")
    print(f"({os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f})")
    return 0 if all(row["same_results"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
