from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from toy_rules import TOY_RULES

import dtypelint.engine


@pytest.fixture
def toy_rules(monkeypatch: pytest.MonkeyPatch) -> tuple[type, ...]:
    """Make the engine (and so the CLI) run the test-only rules instead of the real ones."""
    monkeypatch.setattr(dtypelint.engine, "default_rules", lambda: TOY_RULES)
    return TOY_RULES


@pytest.fixture
def in_tmp(tmp_path: Path) -> Iterator[Path]:
    """Run inside an empty folder (no pyproject.toml above /tmp's test folders)."""
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)
