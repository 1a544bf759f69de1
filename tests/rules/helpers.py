"""Shared helpers for rule tests: exact findings and exact fixed source."""

from __future__ import annotations

import textwrap

import dtypelint
from dtypelint.config import Config


def dedent(code: str) -> str:
    return textwrap.dedent(code).lstrip("\n")


def findings(code: str, select: str | None = None) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding, in order."""
    config = Config(select=(select,)) if select else None
    return [
        (d.code, d.location.row, d.location.column)
        for d in dtypelint.lint_source(dedent(code), "model.py", config)
    ]


def messages(code: str, select: str | None = None) -> list[str]:
    config = Config(select=(select,)) if select else None
    return [d.message for d in dtypelint.lint_source(dedent(code), "model.py", config)]


def fix_titles(code: str, select: str | None = None) -> list[str | None]:
    """The title of each finding's fix (None: reported without a fix)."""
    config = Config(select=(select,)) if select else None
    found = dtypelint.lint_source(dedent(code), "model.py", config)
    return [d.fix.message if d.fix else None for d in found]


def fixed(code: str, unsafe: bool = False, select: str | None = None) -> str:
    config = Config(select=(select,)) if select else None
    return dtypelint.fix_source(dedent(code), "model.py", config, unsafe=unsafe).source


def executed(code: str, filename: str = "model.py") -> dict[str, object]:
    """The names `code` defines, run as a module (fixed code is run, not only compared)."""
    namespace: dict[str, object] = {}
    exec(compile(dedent(code), filename, "exec"), namespace)
    return namespace
