"""The canonical bug (../shared/seeds/bf16-matmul-fix-log.md): 7 hazards found, After lines reproduced.

`fixtures/fixlog_variant` is the same code with the z axes computed from the `origins` buffer
after the joints are written into it: one `check` must still see all 7 hazards (not only
`--fix`, which re-lints its own output).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import FIXLOG, FIXLOG_FINDINGS, ROOT, dtypelint

from dtypelint import fix_source

VARIANT = ROOT / "fixtures" / "fixlog_variant"
TREES = [pytest.param(FIXLOG, id="fixlog"), pytest.param(VARIANT, id="variant")]


@pytest.mark.parametrize("tree", TREES)
def test_check_reports_exactly_the_seven_hazards(tree: Path) -> None:
    result = dtypelint("check", "models", "--output-format", "json", cwd=tree / "before")
    assert result.returncode == 1, result.stderr
    found = [
        (
            Path(d["filename"]).relative_to(tree / "before").as_posix(),  # absolute, as ruff's
            d["location"]["row"],
            d["location"]["column"],
            d["code"],
        )
        for d in json.loads(result.stdout)
    ]
    assert found == FIXLOG_FINDINGS
    assert all(d["fix"]["applicability"] == "safe" for d in json.loads(result.stdout))


@pytest.mark.parametrize("tree", TREES)
def test_fix_reproduces_the_after_lines_byte_for_byte(tree: Path, tmp_path: Path) -> None:
    work = tmp_path / "project"
    shutil.copytree(tree / "before", work)
    result = dtypelint("--fix", "models", cwd=work)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Found 7 errors (7 fixed, 0 remaining)." in result.stdout
    for expected in sorted((tree / "after").rglob("*.py")):
        relative = expected.relative_to(tree / "after")
        assert (work / relative).read_bytes() == expected.read_bytes(), relative
    # A second --fix changes nothing.
    again = dtypelint("--fix", "models", cwd=work)
    assert again.returncode == 0
    assert "All checks passed!" in again.stdout


@pytest.mark.parametrize("tree", TREES)
def test_fix_reaches_its_fixed_point_in_one_round(tree: Path) -> None:
    for path in sorted((tree / "before").rglob("*.py")):
        result = fix_source(path.read_text(encoding="utf-8"), str(path))
        assert result.rounds <= 1, path
        assert result.remaining == [], path


@pytest.mark.parametrize("tree", TREES)
def test_after_tree_is_clean(tree: Path) -> None:
    result = dtypelint("check", "models", cwd=tree / "after")
    assert result.returncode == 0, result.stdout
