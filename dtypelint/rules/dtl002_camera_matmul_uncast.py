"""DTL002 camera-matmul-uncast: camera parameters (float32/64 from the dataset) in a matmul with activations."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypelint.analysis import MatmulOperand, ModuleAnalysis
from dtypelint.analysis.geometry import weak_camera_name
from dtypelint.codemod import append_to
from dtypelint.diagnostics import Diagnostic
from dtypelint.rules.base import Invalid, Rule, make_fix

#: Calls after which the cast goes: bf16 has no inverse/solve kernels.
_INVERSE_METHODS = frozenset({"inverse", "pinverse", "det", "cholesky", "solve"})
#: Methods and attributes that keep a camera matrix a camera matrix (the cast may go before them).
_SHAPE_METHODS = frozenset(
    {"transpose", "permute", "t", "view", "reshape", "unsqueeze", "squeeze", "expand", "expand_as",
     "contiguous", "clone", "detach", "repeat", "flatten", "cuda", "cpu", "to", "flip", "narrow",
     "select", "index_select", "movedim", "swapaxes"}
)  # fmt: skip
_SHAPE_ATTRS = frozenset({"T", "mT", "H", "mH", "data"})


class CameraMatmulUncast(Rule):
    code = "DTL002"
    name = "camera-matmul-uncast"
    summary = "Camera parameter used in a matmul with activations without a cast"

    valid = (
        "import torch\ndef f(x: torch.Tensor, K: torch.Tensor):\n    return x @ K.to(x.dtype).T\n",
        "import torch\ndef f(x: torch.Tensor, K: torch.Tensor):\n    with torch.autocast('cuda', dtype=torch.bfloat16):\n        return x @ K.T\n",
        "import torch\ndef f(x: torch.Tensor, w: torch.Tensor):\n    return x @ w\n",
    )
    invalid = (
        Invalid(
            "import torch\ndef f(points: torch.Tensor, intrinsics: torch.Tensor):\n    return torch.matmul(points, intrinsics.transpose(-1, -2))\n",
            line=3,
            column=33,
            fixed="import torch\ndef f(points: torch.Tensor, intrinsics: torch.Tensor):\n    return torch.matmul(points, intrinsics.to(points.dtype).transpose(-1, -2))\n",
        ),
        Invalid(
            "import torch\ndef f(pix: torch.Tensor, K: torch.Tensor):\n    return torch.inverse(K) @ pix\n",
            line=3,
            column=12,
            fixed="import torch\ndef f(pix: torch.Tensor, K: torch.Tensor):\n    return torch.inverse(K).to(pix.dtype) @ pix\n",
        ),
    )

    def check(self, module: ModuleAnalysis) -> Iterator[Diagnostic]:
        seen: set[int] = set()
        for operand in module.matmul_operands:
            if not operand.value.is_camera or operand.autocast or operand.fixed_precision:
                continue
            if operand.op_name == "einops.einsum":
                # its axes are words (`"... i j, j -> ... i"`): which operand is a matrix and
                # which a vector of sizes is not known, so a camera there is no clear finding
                continue
            if not operand.function.low_precision:
                continue
            if id(operand.operand) in seen:
                continue
            if operand.other_names and all(map(weak_camera_name, operand.other_names)):
                continue  # `einsum("bij,pjk->bpik", T_est_inv, T_p)`: a pose times a pose
            seen.add(id(operand.operand))
            yield self.report(module, operand)

    def report(self, module: ModuleAnalysis, operand: MatmulOperand) -> Diagnostic:
        camera = operand.value.cameras[0] if operand.value.cameras else module.text(operand.operand)
        # `K`, `cam.K`, `batch["K"]` name a camera parameter; `project(...)` returned one.
        what = (
            f"the camera value returned by '{camera}'"
            if camera.endswith("(...)")
            else f"camera parameter '{camera}'"
        )
        other = operand.other_names[0] if operand.other_names else None
        op_name = "`@`" if operand.op_name == "@" else f"`{operand.op_name.lstrip('.')}`"
        if other is None:
            message = f"{what} meets an activation in {op_name} without a cast"
            return self.diagnostic(module, operand.operand, message)
        message = (
            f"{what} meets activation '{other}' in {op_name} without a cast;"
            f" cast it with .to({other}.dtype)"
        )
        anchor = cast_anchor(operand.operand, module)
        grouped = operand.op_name == "@" and anchor is operand.operand
        edits = append_to(module.source, anchor, f".to({other}.dtype)", grouped=grouped)
        fix = make_fix(f"Cast with `.to({other}.dtype)`", edits, safe=True)
        return self.diagnostic(module, operand.operand, message, fix)


def cast_anchor(node: ast.expr, module: ModuleAnalysis) -> ast.expr:
    """Where `.to(dtype)` goes: right after the camera value or after its inverse, before reshapes;
    after indexing (`rot_mats[:, idx].to(x.dtype)`: cast the slice, not the whole tensor)."""
    current = node
    while True:
        if _is_inverse(current, module):
            return current
        if isinstance(current, ast.Attribute) and current.attr in _SHAPE_ATTRS:
            current = current.value
        elif (
            isinstance(current, ast.Call)
            and isinstance(current.func, ast.Attribute)
            and current.func.attr in _SHAPE_METHODS
            and module.qualify(current.func) is None
        ):
            current = current.func.value
        elif (
            isinstance(current, ast.Call)
            and (module.qualify(current.func) or "")
            in (
                "torch.transpose",
                "torch.permute",
                "torch.t",
            )
            and current.args
        ):
            current = current.args[0]
        else:
            return current


def _is_key_lookup(node: ast.Subscript) -> bool:
    return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)


def _is_inverse(node: ast.AST, module: ModuleAnalysis) -> bool:
    if not isinstance(node, ast.Call):
        return False
    qualname = module.qualify(node.func) or ""
    if qualname.startswith("torch.linalg.") or qualname in (
        "torch.inverse",
        "torch.pinverse",
        "torch.det",
    ):
        return True
    return (
        isinstance(node.func, ast.Attribute) and node.func.attr in _INVERSE_METHODS and not qualname
    )
