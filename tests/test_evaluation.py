"""The labelled evaluation set (evaluation/labelled) as a regression guard: every expected
finding, no other finding."""

from __future__ import annotations

import sys

from support import ROOT

sys.path.insert(0, str(ROOT / "evaluation"))
import score  # evaluation/ is not a package: imported from its folder

LABELLED = ROOT / "evaluation" / "labelled"


def test_every_label_found_and_nothing_else() -> None:
    expected = score.read_labels(LABELLED)
    found = score.findings_to_keys(score.run_linter(LABELLED, sys.executable), LABELLED)
    assert len(expected) >= 70
    assert sorted(found - expected) == []  # false positives
    assert sorted(expected - found) == []  # false negatives


def test_scorer_reads_several_codes_on_one_line() -> None:
    labels = score.read_labels(LABELLED)
    line = ("numpy_calibration_projection.py", 20)
    assert {code for file, row, code in labels if (file, row) == line} == {"DTL002", "DTL004"}
    assert {key[2] for key in labels} == {"DTL001", "DTL002", "DTL003", "DTL004", "DTL005"}
