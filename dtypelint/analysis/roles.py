"""Evidence about parameters: annotations and uses that make a name a tensor, a dict, a namespace."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from dtypelint.analysis.syntax import constant_string, dotted_name, is_self_attribute, keyword
from dtypelint.analysis.vocabulary import (
    FACTORIES,
    NON_TENSOR_TORCH_FUNCS,
    REGISTRARS,
    SCALAR_ANNOTATIONS,
    TENSOR_ANNOTATIONS,
    TENSOR_ATTRS,
)

if TYPE_CHECKING:
    from dtypelint.analysis.module import ModuleAnalysis


def annotation_kind(annotation: ast.expr | None) -> str | None:
    """tensor | scalar | numpy | other | None for a parameter annotation."""
    if annotation is None:
        return None
    names = [
        n.attr if isinstance(n, ast.Attribute) else n.id
        for n in ast.walk(annotation)
        if isinstance(n, (ast.Name, ast.Attribute))
    ]
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        names = [
            part.strip("[], ")
            for part in annotation.value.replace("|", " ").replace(",", " ").split()
        ]
        names = [p.rsplit(".", 1)[-1] for p in names]
    if any(n in TENSOR_ANNOTATIONS for n in names):
        return "tensor"
    if any(n == "ndarray" for n in names):
        return "numpy"
    if names and all(
        n in SCALAR_ANNOTATIONS
        or n in ("Optional", "Union", "None", "Tuple", "tuple", "List", "list", "Sequence")
        for n in names
    ):
        if names[0] in ("int", "float") and len(set(names) - {"Optional", "None"}) == 1:
            return names[0]
        return "scalar"
    return "other"


class FunctionScan:
    """Facts from one walk of a function: parameters used as tensors (or as dicts of tensors),
    and the statements that define `self.<attr>` (for class facts)."""

    def __init__(self) -> None:
        self.tensors: set[str] = set()
        self.dicts: set[str] = set()
        self.objects: set[str] = set()  # `cam` in `cam.K`: a namespace, not a tensor
        self.self_facts: list[ast.AST] = []

    @classmethod
    def of(
        cls, func: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleAnalysis
    ) -> FunctionScan:
        usage = cls()
        taken_from: dict[str, ast.expr] = {}  # `img = batch["image"]`: img's use tells batch's kind
        for node in ast.walk(func):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(is_self_attribute(t) for t in targets):
                    usage.self_facts.append(node)
                if (
                    len(targets) == 1
                    and isinstance(targets[0], ast.Name)
                    and isinstance(node.value, (ast.Subscript, ast.Call))
                ):
                    taken_from[targets[0].id] = node.value
                continue
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in REGISTRARS
            ):
                usage.self_facts.append(node)
            if isinstance(node, ast.Attribute) and node.attr in TENSOR_ATTRS:
                usage.mark(node.value)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                usage.objects.add(node.value.id)
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                usage.mark(node.left)
                usage.mark(node.right)
            elif isinstance(node, ast.Call) and node.args:
                qualname = module.qualify(node.func) or ""
                if qualname.startswith("torch.") and qualname not in NON_TENSOR_TORCH_FUNCS:
                    short = qualname.rsplit(".", 1)[-1]
                    if short in FACTORIES and short not in ("tensor", "as_tensor"):
                        continue
                    for arg in node.args:
                        for element in (
                            arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else (arg,)
                        ):
                            usage.mark(element)
        for name, value in taken_from.items():
            if name in usage.tensors:
                usage.mark(value)
        return usage

    def mark(self, node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            self.tensors.add(node.id)
        elif isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name):
                if constant_string(node.slice) is not None:
                    self.dicts.add(node.value.id)
                else:
                    self.tensors.add(node.value.id)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
        ) and isinstance(node.func.value, ast.Name):
            self.dicts.add(node.func.value.id)


def is_float64(node: ast.AST | None, module: ModuleAnalysis) -> bool:
    if node is None:
        return True
    if isinstance(node, ast.Constant):
        return node.value in ("float64", "f8", "double", float)
    qualname = module.qualify(node) or dotted_name(node) or ""
    return qualname.rsplit(".", 1)[-1] in ("float64", "double", "float_", "float")


def explicit_numpy_dtype(call: ast.Call, module: ModuleAnalysis) -> bool:
    """`np.array(x, dtype=np.float32)`: a NumPy array whose dtype is not the float64 default."""
    dtype = keyword(call, "dtype")
    return dtype is not None and not is_float64(dtype, module)
