"""Issue 3's runtime bar: the fixed files of runnable DTL003/DTL004/DTL005 cases run clean in bf16."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

PROJECT = Path(__file__).resolve().parent.parent / "fixtures" / "rules_runtime"


def digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*.py"))
    }


def test_every_runnable_case_is_confirmed_on_cpu_bf16() -> None:
    before = digest(PROJECT)
    result = subprocess.run(
        [sys.executable, "-m", "dtypelint", "verify", str(PROJECT), "--device", "cpu",
         "--dtype", "bfloat16", "--output-format", "json"],
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    verdicts = {e["example"].rsplit(":", 1)[1]: e["verdict"] for e in report["examples"]}
    assert verdicts == {
        "example_one_sided_cast": "confirmed",
        "example_numpy_matrix": "confirmed",
        "example_numpy_helper": "confirmed",
        "example_plain_attributes": "confirmed",
        "example_camera_attribute": "confirmed",
        "example_camera_through_helper": "confirmed",
    }
    codes = {
        e["example"].rsplit(":", 1)[1]: {f["code"] for f in e["findings"]}
        for e in report["examples"]
    }
    assert "DTL003" in codes["example_one_sided_cast"]
    assert "DTL004" in codes["example_numpy_helper"]
    assert "DTL005" in codes["example_plain_attributes"]
    assert digest(PROJECT) == before  # the user's files are never written
