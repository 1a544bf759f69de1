"""The dtype-flow model every rule shares.

One pass over Python's `ast` (about ten times cheaper to build than a libcst tree) answers:
which names hold tensors, which hold activations (the run's dtype), which hold camera parameters
(the dataset's dtype), which tensors a factory created without `dtype=` (float32/int64), and
where those values *meet* (SPEC section 3, "Shared vocabulary").

The package, from the bottom up (each module imports only those above it in this list):

* `vocabulary`: tables of torch functions, tensor methods, dtypes and camera names;
* `syntax`: small helpers over `ast` nodes;
* `values`: `Value` (what an expression holds: roles as flags, origins) and the events rules read;
* `passthrough`: what helpers hand back (their argument reshaped, or a tensor they made);
* `geometry`: which rotation, translation and camera names a function uses as geometry;
* `roles`: evidence about parameters (annotations, uses as tensors);
* `layers`: which torch.nn layer a submodule's input meets first, as `__init__` builds it;
* `scope`: where low precision runs (which functions see bf16/fp16 activations);
* `summaries`: what functions of the project tell their callers;
* `expressions`, `calls`, `torch_calls`, `meetings`, `layer_inputs`: evaluating expressions
  and recording where values meet (layers' inputs included), as parts of `FunctionFlow`;
* `flow`: `FunctionFlow`, one function walked in statement order;
* `walks`: the file's functions walked to a fixed point, re-walking only the classes and
  functions a new fact can change;
* `module`: `ModuleAnalysis`, a file's classes and imports, and the driver over its functions.
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
