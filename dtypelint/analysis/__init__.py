"""The dtype-flow model every rule shares.

One pass over Python's `ast` (about ten times cheaper to build than a libcst tree) answers:
which names hold tensors, which hold activations (the run's dtype), which hold camera parameters
(the dataset's dtype), which tensors a factory created without `dtype=` (float32/int64), and
where those values *meet* (SPEC section 3, "Shared vocabulary").

The package, from the bottom up (each module imports only those above it in this list):

* `vocabulary`: tables of torch functions, tensor methods, dtypes and camera names;
* `syntax`: small helpers over `ast` nodes;
* `values`: `Value` (what an expression holds: roles as flags, origins) and the events rules read;
* `roles`: evidence about parameters (annotations, uses as tensors);
* `expressions`, `calls`, `torch_calls`: evaluating expressions, as parts of `FunctionFlow`;
* `flow`: `FunctionFlow`, one function walked in statement order;
* `walks`: the file's functions walked to a fixed point, re-walking only the classes and
  functions a new fact can change;
* `module`: `ModuleAnalysis`, a file's classes and imports, and the driver over its functions;
* `summaries`: what functions of the project tell their callers.
"""

from dtypelint.analysis.module import ModuleAnalysis
from dtypelint.analysis.values import (
    FIXED,
    FactoryCall,
    FixedCast,
    FunctionInfo,
    MatmulOperand,
    Meet,
    Value,
)
from dtypelint.analysis.vocabulary import DEFAULT_CAMERA_NAMES, CameraNames, is_integer_name

__all__ = [
    "DEFAULT_CAMERA_NAMES",
    "FIXED",
    "CameraNames",
    "FactoryCall",
    "FixedCast",
    "FunctionInfo",
    "MatmulOperand",
    "Meet",
    "ModuleAnalysis",
    "Value",
    "is_integer_name",
]
