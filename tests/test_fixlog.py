"""The canonical bug (../shared/seeds/bf16-matmul-fix-log.md): 7 hazards found, After lines reproduced."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

FIXLOG = Path(__file__).resolve().parent.parent / "fixtures" / "fixlog"

EXPECTED = [
    ("models/encoders/hand_encoder.py", 142, 15, "DTL001"),
    ("models/encoders/hand_encoder.py", 143, 17, "DTL001"),
    ("models/encoders/hand_encoder.py", 170, 20, "DTL001"),
    ("models/encoders/hand_encoder.py", 324, 14, "DTL001"),
    ("models/pixel_aligned.py", 92, 45, "DTL001"),
    ("models/pixel_aligned.py", 98, 13, "DTL002"),
    ("models/pixel_aligned.py", 107, 51, "DTL002"),
]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dtypelint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_check_reports_exactly_the_seven_hazards() -> None:
    result = run("check", "models", "--output-format", "json", cwd=FIXLOG / "before")
    assert result.returncode == 1, result.stderr
    found = [
        (d["filename"], d["location"]["row"], d["location"]["column"], d["code"])
        for d in json.loads(result.stdout)
    ]
    assert found == EXPECTED
    assert all(d["fix"]["applicability"] == "safe" for d in json.loads(result.stdout))


def test_fix_reproduces_the_after_lines_byte_for_byte(tmp_path: Path) -> None:
    work = tmp_path / "project"
    shutil.copytree(FIXLOG / "before", work)
    result = run("--fix", "models", cwd=work)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Found 7 errors (7 fixed, 0 remaining)." in result.stdout
    for expected in sorted((FIXLOG / "after").rglob("*.py")):
        relative = expected.relative_to(FIXLOG / "after")
        assert (work / relative).read_bytes() == expected.read_bytes(), relative
    # A second --fix changes nothing.
    again = run("--fix", "models", cwd=work)
    assert again.returncode == 0
    assert "All checks passed!" in again.stdout


def test_after_tree_is_clean() -> None:
    result = run("check", "models", cwd=FIXLOG / "after")
    assert result.returncode == 0, result.stdout
