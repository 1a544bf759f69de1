"""Shared helpers for rule tests: exact findings and exact fixed source."""

from __future__ import annotations

import textwrap

import pytest

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


def assert_fix_runs(code: str, after: str, name: str, init: tuple = (), inputs: tuple = ()) -> None:
    """Run a fix: `name(*init)` of the original and of the fixed code (same seed) computes the same
    in float32; in bf16 (the module converted, floating inputs too) the original raises and the
    fixed one returns bf16 (callers skip without torch: `pytest.importorskip("torch")`)."""
    import torch

    torch.manual_seed(0)
    original = executed(code)[name](*init)  # type: ignore[operator]
    torch.manual_seed(0)
    patched = executed(after)[name](*init)  # type: ignore[operator]
    assert torch.equal(original(*inputs), patched(*inputs)), name
    low = tuple(i.bfloat16() if i.is_floating_point() else i for i in inputs)
    with pytest.raises(RuntimeError):
        original.to(torch.bfloat16)(*low)
    assert patched.to(torch.bfloat16)(*low).dtype == torch.bfloat16, name
