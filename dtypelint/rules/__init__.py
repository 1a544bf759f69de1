"""The rule registry: every rule class, in code order. DTL000 and DTL9xx come from the engine."""

from __future__ import annotations

from dtypelint.rules.base import Invalid, Rule
from dtypelint.rules.dtl001_factory_without_dtype import FactoryWithoutDtype
from dtypelint.rules.dtl002_camera_matmul_uncast import CameraMatmulUncast
from dtypelint.rules.dtl003_one_sided_cast import OneSidedCast
from dtypelint.rules.dtl004_numpy_float64 import NumpyFloat64
from dtypelint.rules.dtl005_unregistered_tensor_attribute import UnregisteredTensorAttribute

SYNTAX_ERROR_CODE = "DTL000"
SYNTAX_ERROR_NAME = "syntax-error"
#: A path that cannot be read (missing, unreadable): ruff's E902, reported by the engine.
IO_ERROR_CODE = "DTL900"
IO_ERROR_NAME = "io-error"
#: An exception inside dtypelint while it read, analysed or fixed one file (the run goes on).
INTERNAL_ERROR_CODE = "DTL901"
INTERNAL_ERROR_NAME = "internal-error"
#: Syntax of a newer Python than the one dtypelint runs on (PEP 695 generics on 3.11).
NEWER_SYNTAX_CODE = "DTL902"
NEWER_SYNTAX_NAME = "needs-newer-python"
#: The codes the engine reports itself, not rules: always selected unless ignored.
ENGINE_CODES = ("DTL000", "DTL900", "DTL901", "DTL902")

ALL_RULES: tuple[type[Rule], ...] = (
    FactoryWithoutDtype,
    CameraMatmulUncast,
    OneSidedCast,
    NumpyFloat64,
    UnregisteredTensorAttribute,
)

#: code -> name for every code users can select, DTL000 included.
RULE_NAMES: dict[str, str] = (
    {SYNTAX_ERROR_CODE: SYNTAX_ERROR_NAME}
    | {rule.code: rule.name for rule in ALL_RULES}
    | {IO_ERROR_CODE: IO_ERROR_NAME}
    | {INTERNAL_ERROR_CODE: INTERNAL_ERROR_NAME}
    | {NEWER_SYNTAX_CODE: NEWER_SYNTAX_NAME}
)

__all__ = [
    "ALL_RULES",
    "ENGINE_CODES",
    "INTERNAL_ERROR_CODE",
    "INTERNAL_ERROR_NAME",
    "IO_ERROR_CODE",
    "IO_ERROR_NAME",
    "NEWER_SYNTAX_CODE",
    "NEWER_SYNTAX_NAME",
    "RULE_NAMES",
    "SYNTAX_ERROR_CODE",
    "SYNTAX_ERROR_NAME",
    "Invalid",
    "Rule",
]
