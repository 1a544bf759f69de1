"""The canonical bug (../shared/seeds/bf16-matmul-fix-log.md): 7 hazards found, After lines reproduced.

The variant (`variant_tree`) is the same code with the bone directions and z axes computed from
the `origins` buffer after the joints are written into it: a check that walks the function once in
statement order would see `z_axis` as derived from a float32 factory and miss `rotations` (line
143) and `y_global` (line 170). One `check` must still see all 7 hazards (not only `--fix`, which
re-lints its own output), and one `--fix` must give the variant's After lines byte for byte.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import FIXLOG, FIXLOG_FINDINGS, dtypelint

from dtypelint import fix_source

#: The variant's two edits of `build_joint_frames`, made in both trees (before and after).
VARIANT_EDITS = {
    "    bones = joints[:, children] - joints[:, parents]  # (B, 22, 3)\n": (
        "    bones = origins[:, children] - origins[:, parents]  # (B, 22, 3), from the written"
        " frame origins\n"
    ),
    "        z_axis = F.normalize(bones[:, i], dim=-1, eps=eps)\n": (
        "        z_axis = F.normalize(origins[:, children[i]] - origins[:, parents[i]], dim=-1,"
        " eps=eps)\n"
    ),
}


@pytest.fixture(scope="module")
def variant_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`fixtures/fixlog` with the variant's edits, derived so the fix log stays the one source."""
    tree = tmp_path_factory.mktemp("fixlog_variant")
    for side in ("before", "after"):
        shutil.copytree(FIXLOG / side, tree / side)
        encoder = tree / side / "models" / "encoders" / "hand_encoder.py"
        text = encoder.read_text(encoding="utf-8")
        for old, new in VARIANT_EDITS.items():
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        encoder.write_text(text, encoding="utf-8")
    return tree


@pytest.fixture(params=["fixlog", "variant"])
def tree(request: pytest.FixtureRequest) -> Path:
    return FIXLOG if request.param == "fixlog" else request.getfixturevalue("variant_tree")


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


def test_fix_reaches_its_fixed_point_in_one_round(tree: Path) -> None:
    for path in sorted((tree / "before").rglob("*.py")):
        result = fix_source(path.read_text(encoding="utf-8"), str(path))
        assert result.rounds <= 1, path
        assert result.remaining == [], path


def test_after_tree_is_clean(tree: Path) -> None:
    result = dtypelint("check", "models", cwd=tree / "after")
    assert result.returncode == 0, result.stdout
