"""DTL001 factory-without-dtype: `torch.zeros(...)` & co. without `dtype=` meeting activations."""

from __future__ import annotations

from collections.abc import Iterator

from dtypelint.analysis import FactoryCall, Meet, ModuleAnalysis, is_integer_name
from dtypelint.codemod import insert_keyword
from dtypelint.diagnostics import Diagnostic
from dtypelint.rules.base import Invalid, Rule, make_fix

_MEET_PHRASES = {
    "return": "is returned from forward",
    "module": "is passed to a submodule",
}


class FactoryWithoutDtype(Rule):
    code = "DTL001"
    name = "factory-without-dtype"
    summary = "Tensor factory without `dtype=` meets activations (defaults to float32/int64)"

    valid = (
        # dtype given, also through **factory_kwargs
        "import torch\ndef f(x: torch.Tensor):\n    return x + torch.zeros(3, dtype=x.dtype)\n",
        "import torch\ndef f(x: torch.Tensor, **factory_kwargs):\n    return x + torch.zeros(3, **factory_kwargs)\n",
        # *_like and new_*
        "import torch\ndef f(x: torch.Tensor):\n    return x + torch.zeros_like(x) + x.new_ones(3)\n",
        # cast right after creation
        "import torch\ndef f(x: torch.Tensor):\n    return x * torch.ones(3, device=x.device).to(x.dtype)\n",
        # integer arange used as an index
        "import torch\ndef f(x: torch.Tensor):\n    idx = torch.arange(x.shape[0], device=x.device)\n    return x[idx, idx]\n",
        # 0-dim scalar tensor
        "import torch\ndef f(x: torch.Tensor):\n    return x * torch.tensor(0.5, device=x.device)\n",
        # outside tensor-taking code
        "import torch\ndef grid(n: int):\n    return torch.zeros(n, n)\n",
    )
    invalid = (
        Invalid(
            "import torch\ndef f(x: torch.Tensor):\n    return torch.cat([x, torch.zeros(2, 3)])\n",
            line=3,
            column=26,
            fixed="import torch\ndef f(x: torch.Tensor):\n    return torch.cat([x, torch.zeros(2, 3, dtype=x.dtype)])\n",
        ),
        Invalid(
            "import torch as th\nfrom torch import ones\n\ndef f(x: th.Tensor):\n    device = x.device\n    m = ones(4, device=device)\n    return x * m\n",
            line=6,
            column=9,
            fixed="import torch as th\nfrom torch import ones\n\ndef f(x: th.Tensor):\n    device = x.device\n    m = ones(4, device=device, dtype=x.dtype)\n    return x * m\n",
        ),
    )

    def check(self, module: ModuleAnalysis) -> Iterator[Diagnostic]:
        for record in module.factory_calls:
            if record.origin != "factory" or record.function is None:
                continue
            meets = reportable_meets(record)
            if meets:
                yield self.report(module, record, meets)

    def report(self, module: ModuleAnalysis, record: FactoryCall, meets: list[Meet]) -> Diagnostic:
        source_name, safe = dtype_source(record, meets)
        default = record.default_dtype
        first = meets[0]
        if first.act_names:
            where = f"meets '{first.act_names[0]}'"
        else:
            where = _MEET_PHRASES.get(first.kind, "meets activations")
        call = f"{record.func_text}(...)"
        if source_name is None:
            message = f"{call} defaults to {default} but {where}; give it the activations' dtype"
            return self.diagnostic(module, record.node, message.replace("but is", "and is"))
        message = f"{call} defaults to {default} but {where}; add dtype={source_name}.dtype"
        if first.act_names and source_name != first.act_names[0]:
            message += f" ('{first.act_names[0]}' is not bound yet where the call runs)"
        fix = None
        edit = insert_keyword(module.source, record.node, "dtype", f"{source_name}.dtype")
        if edit is not None:
            # An int64 tensor given a float dtype computes other values (and cannot index any
            # more), except small int literals that only ever meet float activations.
            int_change = record.integer and (
                record.used_as_index or not (record.became_float or record.int_literal_vector)
            )
            fix = make_fix(f"Add `dtype={source_name}.dtype`", [edit], safe=safe and not int_change)
        return self.diagnostic(module, record.node, message.replace("but is", "and is"), fix)


def reportable_meets(record: FactoryCall) -> list[Meet]:
    """Meetings worth reporting: autocast casts the operands of matrix products, not of
    elementwise operations, which still promote."""
    return [
        meet
        for meet in record.meets
        if not (meet.matmul and meet.autocast)
        and (meet.function is None or meet.function.low_precision)
        # Losses accumulate in float32 and build float32 targets on purpose: there only
        # what raises counts (NumPy's float64 aside: nobody means that).
        and (meet.strict or record.numpy_data or meet.function is None
             or meet.function.scope_reason != "loss")
    ]


def dtype_source(record: FactoryCall, meets: list[Meet]) -> tuple[str | None, bool]:
    """The tensor whose dtype the factory should take, and whether using it is a safe fix.

    SPEC order: the activation it meets, else the tensor whose `.device` it uses, else the first
    tensor parameter; the name must be bound where the factory runs.
    """
    for meet in meets:
        for name in meet.act_names:
            if name in record.bound_act_names or name.startswith("self."):
                return name, True
    device = record.device_source
    if device and (device in record.bound_act_names or device.startswith("self.")):
        return device, not is_integer_name(device)  # `mask.device`: an index tensor's dtype
    params = record.function.tensor_params if record.function else []
    if params:
        return params[0], False
    return None, False
