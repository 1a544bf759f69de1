"""DTL004 numpy-float64: tensors made from NumPy arrays (float64 by default) meeting activations."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypelint.analysis import FactoryCall, ModuleAnalysis
from dtypelint.codemod import append_to, insert_keyword
from dtypelint.diagnostics import Diagnostic
from dtypelint.rules.base import Invalid, Rule, make_fix
from dtypelint.rules.dtl001_factory_without_dtype import dtype_source, reportable_meets


class NumpyFloat64(Rule):
    code = "DTL004"
    name = "numpy-float64"
    summary = "Tensor made from a NumPy array (float64 by default) meets activations"

    valid = (
        "import numpy as np, torch\ndef f(x: torch.Tensor):\n    return x + torch.from_numpy(np.ones(3)).to(x.dtype)\n",
        "import numpy as np, torch\ndef f(x: torch.Tensor):\n    return x + torch.tensor(np.ones(3), dtype=x.dtype)\n",
    )
    invalid = (
        Invalid(
            "import numpy as np, torch\ndef f(x: torch.Tensor):\n    w = torch.from_numpy(np.load('w.npy'))\n    return x @ w\n",
            line=3,
            column=9,
            fixed="import numpy as np, torch\ndef f(x: torch.Tensor):\n    w = torch.from_numpy(np.load('w.npy')).to(x.dtype)\n    return x @ w\n",
        ),
    )

    def check(self, module: ModuleAnalysis) -> Iterator[Diagnostic]:
        for record in module.factory_calls:
            if not record.numpy_data or record.function is None:
                continue
            meets = reportable_meets(record)
            if meets:
                yield self.report(module, record, meets)

    def report(self, module: ModuleAnalysis, record: FactoryCall, meets: list) -> Diagnostic:
        source = dtype_source(record, meets)
        source_name = source.name if source is not None else None
        first = meets[0]
        where = f"meets '{first.act_names[0]}'" if first.act_names else "meets activations"
        made = (
            f"{record.func_text}(...) returns a NumPy-derived tensor"
            if record.origin == "helper"
            else f"{record.func_text}(...) makes a tensor from a NumPy array"
        )
        node = record.node
        assert isinstance(node, ast.Call)
        message = f"{made} ({_array_dtype(record)}) but {where}"
        if source_name is None:
            return self.diagnostic(module, node, message + "; give it the activations' dtype")
        if record.factory in ("tensor", "as_tensor"):
            message += f"; add dtype={source_name}.dtype"
            edit = insert_keyword(module.source, node, "dtype", f"{source_name}.dtype")
            edits = [edit] if edit else []
            title = f"Add `dtype={source_name}.dtype`"
        else:
            message += f"; add .to({source_name}.dtype)"
            edits = append_to(module.source, node, f".to({source_name}.dtype)")
            title = f"Cast with `.to({source_name}.dtype)`"
        # Where every meeting is a same-dtype operation the original cannot run in float32
        # either; elsewhere float64 arithmetic would become float32 arithmetic.
        safe = all(meet.strict for meet in meets)
        fix = make_fix(title, edits, safe=safe) if edits else None
        return self.diagnostic(module, node, message, fix)


def _array_dtype(record: FactoryCall) -> str:
    """What the message says of the array's dtype: an array given an explicit dtype here is no
    finding, so one made here has NumPy's float64 default; one a helper made (FractalNet's
    `astype(np.float32)` drop mask) has a dtype this function does not see."""
    if record.origin == "helper":
        return "the array's dtype, not the run's"
    return "float64 by default"
