"""`dtypelint trace`: the verify harness's mixed-dtype recorder for any Python command.

    dtypelint trace -- python train.py --steps 2    # command.py (no torch in dtypelint itself)
    pytest -p dtypelint.trace tests/models           # this package is the pytest plugin

Importing this package imports neither torch nor pytest: the plugin's hooks below only import
them when pytest calls them.
"""

from dtypelint.trace.plugin import (
    pytest_addoption,
    pytest_configure,
    pytest_sessionfinish,
    pytest_terminal_summary,
)

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "pytest_sessionfinish",
    "pytest_terminal_summary",
]
