"""Geometry: which rotation, translation and camera values a function uses as geometry (multiplied
with points, inverted, sliced to 3x3 / 3x1), so that names like `R`, `t`, `trans` are cameras only
there."""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from dtypelint.analysis.syntax import (
    einsum_matrix_operands,
    expression_root_name,
    last_name,
    walk,
)
from dtypelint.analysis.vocabulary import MATMUL_FUNCS, MATMUL_METHODS

if TYPE_CHECKING:
    from dtypelint.analysis.module import ModuleAnalysis


#: Rotation and translation names: cameras only where the function uses them as geometry.
WEAK_CAMERA_NAMES = frozenset(
    {"R", "t", "T", "rot", "rotation", "trans", "translation", "trans_mat", "trans_mats", "Rs", "rots",
     "rotations", "translations"}
)  # fmt: skip


def weak_camera_name(name: str) -> bool:
    return name in WEAK_CAMERA_NAMES or name.split("_", 1)[0] in ("R", "t", "T", "rot", "trans")


def ambiguous_camera_name(name: str) -> bool:
    """A rotation, translation or pose (`rotation_matrix`, `trans_inv`, `pose`): what a network
    predicts as often as what a dataset gives; not `c2w` or `intrinsics`."""
    core = name.split("_", 1)[0]
    return weak_camera_name(name) or core in ("rotation", "translation", "pose", "poses")


def geometry_names(nodes: list[ast.AST], module: ModuleAnalysis) -> set[str]:
    """Names a function uses as geometry (see `FunctionScan.geometry`), from its `nodes`."""
    multiplied: set[str] = set()  # a product's operands (or inverted)
    placed: set[str] = set()  # sliced out of a pose, or added to a product
    products: set[str] = set()  # locals assigned a matmul result
    built_from: dict[str, set[str]] = {}
    added: list[tuple[ast.AST, ast.AST]] = []  # (side, other) of `a + b` / `a - b`
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                built_from.setdefault(target.id, set()).update(
                    n.id
                    for n in walk(node.value)
                    if isinstance(n, ast.Name) and n.id not in module.aliases
                )
                if is_product(node.value, module):
                    products.add(target.id)
        elif isinstance(node, ast.Subscript) and _slices_a_3x3(node.slice):
            placed.update(_roots(node.value))  # `T[..., :3, :3]`, `T[..., :3, 3:4]`
        elif isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.MatMult):
                multiplied.update(_roots(node.left, node.right))
            elif isinstance(node.op, (ast.Add, ast.Sub)):
                added += [(node.left, node.right), (node.right, node.left)]
        elif isinstance(node, ast.Call):
            qualname = module.qualify(node.func) or ""
            method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
            if qualname.endswith("einsum"):
                multiplied.update(_roots(*einsum_matrix_operands(node)))
            elif (
                qualname in MATMUL_FUNCS
                or qualname.startswith("torch.linalg.")
                or qualname
                in (
                    "torch.inverse",
                    "torch.pinverse",
                )
            ):
                multiplied.update(_roots(*node.args))
            elif not qualname and method in MATMUL_METHODS | {"inverse", "pinverse"}:
                multiplied.update(_roots(node.func.value, *node.args))  # type: ignore[attr-defined]
    added_to_names: set[str] = set()
    for side, other in added:  # `points @ R.mT + t`, `out = x @ R; out + t`
        if is_product(other, module) or (isinstance(other, ast.Name) and other.id in products):
            placed.update(_roots(side))
        elif isinstance(other, ast.Name):
            added_to_names.update(_roots(side))
    direct = multiplied | placed
    geometry = set(direct)
    for name in direct:  # one step back: `Rt = torch.cat([R, t])` then `K @ Rt`
        geometry |= built_from.get(name, set())
    # A translation is added to points, not multiplied with them: a `t` that is a product's
    # operand only is some other axis (speechbrain's Gabor filters: `tensordot(center, t)`)
    multiplied_only = multiplied - placed - added_to_names
    return geometry - (multiplied_only & _TRANSLATION_NAMES)


_TRANSLATION_NAMES = frozenset({"t", "trans", "translation", "translations"})


#: Reshaping a product keeps it the product: `(K @ p[..., None]).squeeze(-1) + t`.
_RESHAPES = frozenset({"view", "reshape", "squeeze", "unsqueeze", "permute", "transpose",
                       "flatten", "contiguous", "expand", "movedim"})  # fmt: skip


def is_product(node: ast.AST, module: ModuleAnalysis) -> bool:
    """A matrix product, perhaps reshaped or indexed (what a translation is added to)."""
    while isinstance(node, ast.Subscript) or (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _RESHAPES
    ):
        node = node.value if isinstance(node, ast.Subscript) else node.func.value  # type: ignore[attr-defined]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        return True
    return isinstance(node, ast.Call) and (
        (module.qualify(node.func) or "") in MATMUL_FUNCS
        or (isinstance(node.func, ast.Attribute) and node.func.attr in MATMUL_METHODS)
    )


def _roots(*nodes: ast.AST) -> set[str]:
    """The names operands start from (`R` in `R.mT`, `t[:, None]`, `R.transpose(1, 2)`)."""
    roots = set()
    for node in nodes:
        root = expression_root_name(node)
        if root is not None and not root.startswith("self."):
            roots.add(root)
    return roots


#: Words in the names of functions converting rotation parameters to matrices.
_ROTATION_CONVERSIONS = ("rodrigues", "axis_angle", "aa2", "rot6d", "6d", "quat", "euler",
                         "so3", "exp_map", "expmap", "angle_axis")  # fmt: skip


_ROTATION_CONVERSION = re.compile("|".join(map(re.escape, _ROTATION_CONVERSIONS)))


def converts_rotations(call: ast.Call) -> bool:
    """A call converting rotation parameters (`batch_rodrigues(pose)`); asked of every call."""
    return _ROTATION_CONVERSION.search(last_name(call.func).lower()) is not None


def _slices_a_3x3(index: ast.AST) -> bool:
    """`[..., :3, :3]`, `[:3, 3]`: a rotation or translation cut out of a pose matrix."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    slices = [p for p in parts if isinstance(p, ast.Slice)]
    return (
        len(slices) >= 1
        and len(parts) >= 2
        and any(
            isinstance(bound, ast.Constant) and bound.value in (3, 4)
            for s in slices
            for bound in (s.lower, s.upper)
        )
    )
