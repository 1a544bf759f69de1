"""DTL005 unregistered-tensor-attribute: a plain tensor on a module, skipped by `module.to(dtype)`."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypelint.analysis import FactoryCall, ModuleAnalysis
from dtypelint.analysis.syntax import is_empty_tensor_call, is_self_attribute, walk
from dtypelint.analysis.values import ClassInfo
from dtypelint.diagnostics import Diagnostic, Edit
from dtypelint.rules.base import Invalid, Rule, make_fix
from dtypelint.rules.dtl001_factory_without_dtype import reportable_meets


class UnregisteredTensorAttribute(Rule):
    code = "DTL005"
    name = "unregistered-tensor-attribute"
    summary = "Module stores a tensor in a plain attribute that meets activations"

    valid = (
        "import torch\nfrom torch import nn\nclass M(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.register_buffer('scale', torch.ones(3))\n"
        "    def forward(self, x):\n        return x * self.scale\n",
    )
    invalid = (
        Invalid(
            "import torch\nfrom torch import nn\nclass M(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.scale = torch.ones(3)\n"
            "    def forward(self, x):\n        return x * self.scale\n",
            line=6,
            column=9,
            fixed="import torch\nfrom torch import nn\nclass M(nn.Module):\n    def __init__(self):\n"
            '        super().__init__()\n        self.register_buffer("scale", torch.ones(3), persistent=False)\n'
            "    def forward(self, x):\n        return x * self.scale\n",
        ),
    )

    def check(self, module: ModuleAnalysis) -> Iterator[Diagnostic]:
        for (class_name, _), record in module.attribute_records.items():
            # A comparison's bool result keeps nothing of the attribute's dtype: what
            # `module.to(torch.bfloat16)` skipping it changes is arithmetic and matmuls.
            meets = [meet for meet in reportable_meets(record) if meet.kind != "compare"]
            if record.integer and not record.became_float:
                continue  # an index table: `.to(torch.bfloat16)` converts no integer tensor
            if meets and not empty_placeholder(record.node):
                yield self.report(module, module.classes[class_name], record, meets)

    def report(
        self, module: ModuleAnalysis, owner: ClassInfo, record: FactoryCall, meets: list
    ) -> Diagnostic:
        attr = record.attribute
        first = meets[0]
        where = f"meets '{first.act_names[0]}'" if first.act_names else "meets activations"
        message = (
            f"self.{attr} is a plain tensor attribute: module.to(torch.bfloat16), .half() and"
            f" .cuda() skip it, and it {where}; register it as a buffer"
        )
        stmt = record.node
        fix = None
        assignments = owner.init_assignments.get(attr, 0)  # type: ignore[arg-type]
        if _stays_with_others(owner, attr):  # type: ignore[arg-type]
            message += " (with the plain tensors it is used with, which a fix cannot register)"
        elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and assignments == 1:
            value = module.text(stmt.value)
            edit = Edit(
                f'self.register_buffer("{attr}", {value}, persistent=False)',
                module.source.start(stmt),
                module.source.end(stmt),
            )
            # persistent=False keeps the state dict as it was.
            fix = make_fix(f"Register `self.{attr}` as a non-persistent buffer", [edit], safe=True)
        return self.diagnostic(module, stmt, message, fix)


def _stays_with_others(owner: ClassInfo, attribute: str) -> bool:
    """The class's methods read another plain tensor of it that no fix registers (made twice in
    `__init__`, or an `nn.Parameter` on another path: speechbrain's `Filterbank` keeps
    `f_central` a plain tensor when frozen). Registering this one alone would split the module
    across devices on `.cuda()`, where the plain tensors now stay together."""
    others = {
        attr
        for attr in owner.tensor_attrs
        if attr != attribute
        and (owner.init_assignments.get(attr, 0) != 1 or attr in owner.parameters)
    }
    return bool(others) and any(
        isinstance(node, ast.Attribute) and node.attr in others and is_self_attribute(node)
        for name, method in owner.method_nodes.items()
        if name != "__init__"
        for node in walk(method)
    )


def empty_placeholder(stmt: ast.AST) -> bool:
    """`self._encoded = torch.empty(0)`: a tensor with no elements holds no data to convert; it
    is a placeholder that a hook or a later call replaces before anything reads it (torchgeo's
    BYOL wrapper), and its meetings are those of the tensor put there."""
    return is_empty_tensor_call(getattr(stmt, "value", None))
