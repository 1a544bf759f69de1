"""What an attribute `__init__` assigns holds: a tensor (float or integer), a complex one, a
NumPy array, or something else (part of `ModuleAnalysis`, read while collecting a module's facts).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from dtypelint.analysis.roles import annotation_kind
from dtypelint.analysis.syntax import (
    builds_sequence,
    class_definitions,
    is_int_constant,
    is_self_attribute,
    is_zero_dim_factory,
    keyword,
    last_name,
    walk,
)
from dtypelint.analysis.values import ClassInfo
from dtypelint.analysis.vocabulary import (
    COMPLEX_DTYPES,
    COMPLEX_TORCH_FUNCS,
    INT_DTYPES,
    INT_METHODS,
    SCALAR_METHODS,
    non_tensor_torch,
)


class AttributeKinds:
    """The attribute classifiers of `ModuleAnalysis`, which provides these:"""

    tree: ast.Module
    module_constants: dict[str, ast.expr]  # `MEAN = np.array(...)` at module level
    _complex_methods: dict[str, bool]  # methods already found to return complex tensors

    qualify: Callable[..., str | None]  # the dotted name an expression stands for

    def _tensor_kind(
        self, value: ast.AST, local: dict[str, ast.AST] | None = None, depth: int = 0
    ) -> str | None:
        """float | int when `value` builds a tensor with torch (for plain `self.x = ...`). `local`
        maps local names to their first value (`pe = zeros(...)`; `self.pe = pe.unsqueeze(0)`)."""
        if builds_sequence(value):
            return None  # a list of tensors: not a buffer (`register_buffer` takes one tensor)
        if isinstance(value, ast.Call) and last_name(value.func) in SCALAR_METHODS:
            return None  # `torch.log(torch.tensor(2.0)).item()`: a Python number
        if is_zero_dim_factory(value, self.qualify) or self._complex_expression(value):
            return None  # 0-dim scalars promote nothing; complex tables must not be cast
        makes_tensor = False
        nodes = walk(value)  # once: five passes over it below
        if any(
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in ("len", "int", "float")
            for n in nodes
        ):
            return None  # `len(x) // 2`, `int(t.max())`: a Python number
        # Names under an element (`rng[0]`) or metadata (`kernel.shape[0] // 2`): numbers.
        elements = {
            id(n.value)
            for n in nodes
            if (isinstance(n, ast.Subscript) and is_int_constant(n.slice))
            or (isinstance(n, ast.Attribute) and n.attr in ("shape", "ndim", "dtype", "device"))
        } | {
            id(n.func.value)  # type: ignore[attr-defined]
            for n in nodes
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in SCALAR_METHODS | {"size"}
        }
        for n in nodes:  # `.shape[0]`: the element of metadata is metadata too
            if isinstance(n, ast.Attribute) and id(n) in elements:
                elements.add(id(n.value))
        for node in nodes:
            if isinstance(node, ast.Call):
                qualname = self.qualify(node.func) or ""
                short = qualname.rsplit(".", 1)[-1]
                if qualname.startswith("torch.nn.") and short[:1].isupper():
                    return None  # a module or an nn.Parameter
                if qualname.startswith("torch.") and not (
                    non_tensor_torch(qualname) or qualname.startswith("torch.nn.")
                ):
                    makes_tensor = True
            elif (
                isinstance(node, ast.Name)
                and local
                and node.id in local
                and depth < 3
                and id(node) not in elements
            ):
                # `self.pe = pe.unsqueeze(0)`, `self.ac = torch.cumprod(1 - betas, 0)`; not
                # `self.off = size / 2 + rng[0]` (a 0-dim element)
                origin = self._tensor_kind(local[node.id], local, depth + 1)
                if origin is not None:
                    return origin
        if not makes_tensor:
            return None
        return "int" if self._integer_expression(value) else "float"

    def _method_makes_complex(self, name: str) -> bool:
        if name not in self._complex_methods:
            self._complex_methods[name] = any(
                self._makes_complex(stmt)
                for node in class_definitions(self.tree.body)
                for stmt in node.body
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name
            )
        return self._complex_methods[name]

    def _makes_complex(self, method: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """A method whose body makes complex tensors (one walk, cheap checks)."""
        for node in walk(method):
            if isinstance(node, ast.Call):
                qualname = self.qualify(node.func) or ""
                if qualname in COMPLEX_TORCH_FUNCS or qualname.startswith("torch.fft."):
                    return True
            elif isinstance(node, ast.Attribute) and node.attr.startswith(("complex", "cfloat")):
                return True
        return False

    def _complex_expression(self, value: ast.AST) -> bool:
        """`torch.polar(...)`, `torch.fft.*`, `dtype=torch.complex64`, or a call of a method of
        this file that makes one (`self.rope_params(...)`)."""
        for node in walk(value):
            if isinstance(node, ast.Call):
                qualname = self.qualify(node.func) or ""
                if qualname in COMPLEX_TORCH_FUNCS or qualname.startswith("torch.fft."):
                    return True
                method = node.func.attr if is_self_attribute(node.func) else None  # type: ignore[attr-defined]
                if method and self._method_makes_complex(method):
                    return True
            elif isinstance(node, ast.Attribute) and (self.qualify(node) or "") in COMPLEX_DTYPES:
                return True
        return False

    def _numpy_expression(self, value: ast.AST, info: ClassInfo, depth: int = 0) -> bool:
        """A NumPy array made in `__init__`: `np.*(...)`, a parameter annotated `np.ndarray`, a
        module constant made by NumPy, a method of a NumPy object (`rng.normal(...)`)."""
        if depth > 2:
            return False
        node = value
        while isinstance(node, (ast.BinOp, ast.UnaryOp)):  # `rng.normal(size=...) * 0.1`
            if isinstance(node, ast.UnaryOp):
                node = node.operand
            else:  # `1.0 / (np.std(sample, axis=0) + 1e-3)`: the array is the other side
                node = node.right if isinstance(node.left, ast.Constant) else node.left
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if (self.qualify(node.func) or "").startswith("numpy."):
                return True
            node = node.func.value
        if isinstance(node, ast.Call):
            made = (self.qualify(node.func) or "").startswith("numpy.")
            return made or self._numpy_helper(node.func, info, depth)
        if isinstance(node, ast.Name):
            if node.id in self._init_numpy_params(info):
                return True
            local = self._init_locals(info).get(node.id) or self.module_constants.get(node.id)
            return local is not None and self._numpy_expression(local, info, depth + 1)
        return False

    def _numpy_helper(self, func: ast.expr, info: ClassInfo, depth: int) -> bool:
        """`self.mel_basis = mel_filter_bank(...)`: a function of this file whose every return is
        a NumPy array (`return np.maximum(0.0, np.minimum(up, down))`)."""
        helper = next(
            (
                stmt
                for stmt in self.tree.body
                if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
                and isinstance(func, ast.Name)
                and stmt.name == func.id
            ),
            None,
        )
        returned = [  # its own returns, not those of the functions it defines
            node.value
            for node in (_own_nodes(helper.body) if helper is not None else [])
            if isinstance(node, ast.Return) and node.value
        ]
        return bool(returned) and all(
            self._numpy_expression(value, info, depth + 1) for value in returned
        )

    def _init_numpy_params(self, info: ClassInfo) -> set[str]:
        method = info.method_nodes.get("__init__")
        if method is None:
            return set()
        return {
            arg.arg
            for arg in (*method.args.args, *method.args.kwonlyargs)
            if annotation_kind(arg.annotation) == "numpy"
        }

    def _init_locals(self, info: ClassInfo) -> dict[str, ast.AST]:
        """Local names of the class's __init__ and the value each was first assigned."""
        method = info.method_nodes.get("__init__")
        if method is None:
            return {}
        cached = getattr(info, "_init_locals", None)
        if cached is None:
            cached = {}
            for node in walk(method):
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target = node.targets[0]
                    if isinstance(target, ast.Name):
                        cached.setdefault(target.id, node.value)
                    elif isinstance(target, ast.Tuple):  # `pos_x, pos_y = torch.meshgrid(...)`
                        for element in target.elts:
                            if isinstance(element, ast.Name):
                                cached.setdefault(element.id, node.value)
            info._init_locals = cached  # type: ignore[attr-defined]
        return cached

    def _integer_expression(self, value: ast.AST) -> bool:
        node = value
        while isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr in INT_METHODS | {"bool"}:
                return True
            dtype = keyword(node, "dtype")
            if dtype is not None:
                return (self.qualify(dtype) or "") in INT_DTYPES
            qualname = self.qualify(node.func) or ""
            short = qualname.rsplit(".", 1)[-1]
            if qualname.startswith("torch."):
                if short in ("randint", "randperm"):
                    return True
                if short == "arange":
                    return not any(
                        isinstance(c, ast.Constant) and isinstance(c.value, float)
                        for c in walk(node)
                    )
                if short in ("tensor", "as_tensor") and node.args:
                    constants = [c.value for c in walk(node.args[0]) if isinstance(c, ast.Constant)]
                    return bool(constants) and all(isinstance(c, int) for c in constants)
                return False
            if isinstance(node.func, ast.Attribute):
                node = node.func.value
            else:
                return False
        return False


def _own_nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of a function's body, not those of the functions or classes it defines."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        found.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return found
