"""The canonical bug (../shared/seeds/bf16-matmul-fix-log.md): 7 hazards found, After lines reproduced."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from support import FIXLOG, FIXLOG_FINDINGS, dtypelint


def test_check_reports_exactly_the_seven_hazards() -> None:
    result = dtypelint("check", "models", "--output-format", "json", cwd=FIXLOG / "before")
    assert result.returncode == 1, result.stderr
    found = [
        (
            Path(d["filename"]).relative_to(FIXLOG / "before").as_posix(),  # absolute, as ruff's
            d["location"]["row"],
            d["location"]["column"],
            d["code"],
        )
        for d in json.loads(result.stdout)
    ]
    assert found == FIXLOG_FINDINGS
    assert all(d["fix"]["applicability"] == "safe" for d in json.loads(result.stdout))


def test_fix_reproduces_the_after_lines_byte_for_byte(tmp_path: Path) -> None:
    work = tmp_path / "project"
    shutil.copytree(FIXLOG / "before", work)
    result = dtypelint("--fix", "models", cwd=work)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Found 7 errors (7 fixed, 0 remaining)." in result.stdout
    for expected in sorted((FIXLOG / "after").rglob("*.py")):
        relative = expected.relative_to(FIXLOG / "after")
        assert (work / relative).read_bytes() == expected.read_bytes(), relative
    # A second --fix changes nothing.
    again = dtypelint("--fix", "models", cwd=work)
    assert again.returncode == 0
    assert "All checks passed!" in again.stdout


def test_after_tree_is_clean() -> None:
    result = dtypelint("check", "models", cwd=FIXLOG / "after")
    assert result.returncode == 0, result.stdout
