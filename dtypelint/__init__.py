"""dtypelint: find and fix dtype hazards (bf16/fp16 mismatches) in PyTorch code.

Python API (no torch import):

    >>> import dtypelint
    >>> findings = dtypelint.lint_source(code, "model.py")
    >>> result = dtypelint.fix_source(code, "model.py")  # result.source / .applied / .remaining
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dtypelint.diagnostics import Applicability, Diagnostic, Edit, Fix, Location

if TYPE_CHECKING:
    from dtypelint.config import Config
    from dtypelint.fixer import FixResult

__version__ = "0.1.0"

__all__ = [
    "Applicability",
    "Diagnostic",
    "Edit",
    "Fix",
    "FixResult",
    "Location",
    "__version__",
    "fix_source",
    "lint_source",
]


def lint_source(
    source: str, filename: str = "<stdin>", config: Config | None = None
) -> list[Diagnostic]:
    """Every finding in `source` (settings from `config`, default: all rules), sorted.

    Runs with a deep stack (`dtypelint.isolation`): deeply nested code is analysed too.
    """
    from dtypelint.engine import lint_source as lint
    from dtypelint.isolation import run_deep

    return run_deep(lint, source, filename, config)


def fix_source(
    source: str, filename: str = "<stdin>", config: Config | None = None, unsafe: bool = False
) -> FixResult:
    """Apply the fixes (unsafe ones too with `unsafe=True`) until the source is stable."""
    from dtypelint.fixer import fix_source as fix
    from dtypelint.isolation import run_deep

    return run_deep(fix, source, filename, config, unsafe)


def __getattr__(name: str) -> object:
    # FixResult lives with the fixer; loaded on first use to keep `import dtypelint` light.
    if name == "FixResult":
        from dtypelint.fixer import FixResult

        return FixResult
    raise AttributeError(f"module 'dtypelint' has no attribute {name!r}")
