"""The rule registry: every rule class, in code order. DTL000 is produced by the engine itself."""

from __future__ import annotations

from dtypelint.rules.base import Invalid, Rule
from dtypelint.rules.dtl001_factory_without_dtype import FactoryWithoutDtype
from dtypelint.rules.dtl002_camera_matmul_uncast import CameraMatmulUncast
from dtypelint.rules.dtl003_one_sided_cast import OneSidedCast
from dtypelint.rules.dtl004_numpy_float64 import NumpyFloat64
from dtypelint.rules.dtl005_unregistered_tensor_attribute import UnregisteredTensorAttribute

SYNTAX_ERROR_CODE = "DTL000"
SYNTAX_ERROR_NAME = "syntax-error"

ALL_RULES: tuple[type[Rule], ...] = (
    FactoryWithoutDtype,
    CameraMatmulUncast,
    OneSidedCast,
    NumpyFloat64,
    UnregisteredTensorAttribute,
)

#: code -> name for every code users can select, DTL000 included.
RULE_NAMES: dict[str, str] = {SYNTAX_ERROR_CODE: SYNTAX_ERROR_NAME} | {
    rule.code: rule.name for rule in ALL_RULES
}

__all__ = ["ALL_RULES", "RULE_NAMES", "SYNTAX_ERROR_CODE", "SYNTAX_ERROR_NAME", "Invalid", "Rule"]
