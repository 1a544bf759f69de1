"""DTL003 one-sided-cast: a matmul operand cast to a fixed dtype while the other side is an activation."""

from __future__ import annotations

from collections.abc import Iterator

from dtypelint.analysis import FIXED, FixedCast, MatmulOperand, ModuleAnalysis
from dtypelint.diagnostics import Diagnostic, Edit
from dtypelint.rules.base import Invalid, Rule, make_fix


class OneSidedCast(Rule):
    code = "DTL003"
    name = "one-sided-cast"
    summary = "Matmul operand cast to a fixed dtype while the other operand is an activation"

    valid = (
        "import torch\ndef f(q: torch.Tensor, k: torch.Tensor):\n    return q.float() @ k.float().T\n",
        "import torch\ndef f(s: torch.Tensor, v: torch.Tensor):\n    p = s.float().softmax(-1).to(v.dtype)\n    return p @ v\n",
    )
    invalid = (
        Invalid(
            "import torch\ndef f(s: torch.Tensor, v: torch.Tensor):\n    p = s.float().softmax(-1).half()\n    return p @ v\n",
            line=4,
            column=12,
            fixed="import torch\ndef f(s: torch.Tensor, v: torch.Tensor):\n    p = s.float().softmax(-1).to(v.dtype)\n    return p @ v\n",
        ),
    )

    def check(self, module: ModuleAnalysis) -> Iterator[Diagnostic]:
        seen: set[int] = set()
        for operand in module.matmul_operands:
            value = operand.value
            if value.is_camera or not value.flags & FIXED or not value.fixed:
                continue
            if not operand.function.low_precision:
                continue
            if operand.autocast or operand.fixed_precision or id(operand.operand) in seen:
                continue
            seen.add(id(operand.operand))
            yield self.report(module, operand)

    def report(self, module: ModuleAnalysis, operand: MatmulOperand) -> Diagnostic:
        cast = max(operand.value.fixed, key=lambda c: (c.node.lineno, c.node.col_offset))  # type: ignore[attr-defined]
        other = operand.other_names[0] if operand.other_names else None
        text = module.text(operand.operand)
        op_name = "`@`" if operand.op_name == "@" else f"`{operand.op_name.lstrip('.')}`"
        where = f"'{other}'" if other else "an activation"
        message = (
            f"'{text}' is cast to {cast.dtype} ({_cast_text(module, cast)}) but meets activation"
            f" {where} in {op_name}, which has the run's dtype"
        )
        if other is None:
            return self.diagnostic(module, operand.operand, message)
        message += f"; cast to {other}.dtype instead"
        fix = None
        if other in cast.bound_act_names or other.startswith("self."):
            # Safe: the original runs only when `other` already has the cast's dtype, and then
            # `.to(other.dtype)` is the same cast.
            fix = make_fix(f"Cast with `.to({other}.dtype)`", [_replace_cast(module, cast, other)], safe=True)
        return self.diagnostic(module, operand.operand, message, fix)


def _cast_text(module: ModuleAnalysis, cast: FixedCast) -> str:
    source = module.source
    return source.text[source.offset(source.end(cast.source_node)) : source.offset(source.end(cast.node))]


def _replace_cast(module: ModuleAnalysis, cast: FixedCast, other: str) -> Edit:
    """`x.half()` / `x.to(torch.float16)` -> `x.to(other.dtype)`: replace what follows the receiver."""
    source = module.source
    return Edit(f".to({other}.dtype)", source.end(cast.source_node), source.end(cast.node))
