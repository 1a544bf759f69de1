from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


# --- the content cache: the suite runs with it warm (default), cold, or off -------------------
#
# `pytest --dtypelint-cache=off` (or DTYPELINT_TEST_CACHE=off) runs every test without the cache
# (DTYPELINT_NO_CACHE=1, subprocesses included); `cold` with a cache that starts empty, as a
# user's first run; `warm` (the default) also runs each in-process check once beforehand (a check,
# or the same diff), so that the run the test looks at reads its results from the cache. The
# suite must pass in all three: the cache never changes a result. The cache lives in a temporary
# folder for the session (DTYPELINT_CACHE_DIR), never in the checkout; tests of where the cache
# goes by default unset it.

CACHE_MODES = ("warm", "cold", "off")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--dtypelint-cache",
        choices=CACHE_MODES,
        default=os.environ.get("DTYPELINT_TEST_CACHE", "warm"),
        help="run the tests with dtypelint's content cache warm (default), cold, or off",
    )


def pytest_configure(config: pytest.Config) -> None:
    mode = config.getoption("--dtypelint-cache")
    if mode == "off":
        os.environ["DTYPELINT_NO_CACHE"] = "1"
        return
    os.environ.pop("DTYPELINT_NO_CACHE", None)
    folder = tempfile.mkdtemp(prefix="dtypelint-test-cache-")
    config.stash[_CACHE_FOLDER] = folder
    os.environ["DTYPELINT_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_CACHE_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_report_header(config: pytest.Config) -> str:
    return f"dtypelint cache: {config.getoption('--dtypelint-cache')}"


_CACHE_FOLDER = pytest.StashKey[str]()


@pytest.fixture(autouse=True)
def cache_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """This run's cache mode; in `warm`, every in-process check is run once beforehand."""
    mode: str = request.config.getoption("--dtypelint-cache")
    if mode == "warm":
        import dtypelint.cli_check

        real = dtypelint.cli_check.lint_paths

        def warmed(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("cache") is not None:
                before = {**kwargs, "fix": False, "progress": None}
                real(*args, **before)  # --fix: the check's results; --diff: the same diff
            return real(*args, **kwargs)

        monkeypatch.setattr(dtypelint.cli_check, "lint_paths", warmed)
    return mode
