"""DTL003 one-sided-cast: a matmul operand cast to a fixed dtype while the other side is an activation."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from dtypelint.analysis import FIXED, FixedCast, MatmulOperand, ModuleAnalysis
from dtypelint.analysis.syntax import einsum_contracts, expression_root_name, last_name, walk
from dtypelint.analysis.vocabulary import FLOAT_DTYPES
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
        reported_casts: set[int] = set()
        for operand in module.matmul_operands:
            value = operand.value
            if value.is_camera or not value.flags & FIXED or not value.fixed:
                continue
            if not operand.function.low_precision:
                continue
            if operand.autocast or operand.fixed_precision or id(operand.operand) in seen:
                continue
            if all(_dtype_guarded(module, cast, operand) for cast in value.fixed):
                continue  # `if w.dtype == torch.float16: w = softmax(w.float()).half()`
            if all(cast.made for cast in value.fixed) and (
                value.is_act or all(_not_given_a_tensor(module, c, operand) for c in value.fixed)
            ):
                # made in float32 on one path only (`if not isinstance(h, torch.Tensor): h =
                # torch.tensor(h, dtype=torch.float)`): the path given a tensor is the model's
                continue
            casts = {id(cast.node) for cast in value.fixed}
            if operand.elementwise:
                # A promotion raises nowhere itself: reported only where the module's own
                # activations run (not in losses, whose float32 math is their design, nor in
                # library functions, whose tensors are only assumed low precision), once per
                # cast, and not inside a comparison (`(x - 4 * s) < grid` is a bool anyway).
                if operand.function.scope_reason not in ("module", "helper", "all"):
                    continue
                if casts <= reported_casts or _compared(module, operand):
                    continue
                if not _derived_from_casts(module, operand):
                    continue  # `out * m` with `out` unknown: the cast is not all it holds
                seen.add(id(operand.operand))
                reported_casts |= casts
                yield self.report_promotion(module, operand)
                continue
            upcast = all(cast.dtype in ("float32", "float64") for cast in value.fixed)
            if (
                upcast
                and not _layer_call(operand)
                and operand.other_names
                and not _meets_a_buffer(module, operand)
                and all(_own_parameter(n) for n in operand.other_names)
            ):
                # A module's parameters may be kept in float32 on purpose (`A_log`, gates) and
                # an upcast matches them; the seed's hazard is a cast meeting input activations
                # (or a float16 cast meeting bf16 weights, which raises: still reported).
                continue
            if upcast and _broadcast_einsum(operand.op_node):
                # `einsum("bdl,dn->bdln", delta.float(), A)` sums over nothing: it promotes to
                # the float32 the author asked for instead of raising (SSM scans upcast on purpose).
                continue
            if _layer_call(operand) and casts & reported_casts:
                continue  # a product of the reported cast, given on to a layer: one hazard
            if operand.op_name.startswith(("F.", "point_sample")) and casts <= reported_casts:
                continue  # a grid the reported cast promoted (`grid.float() + flow`): one hazard
            seen.add(id(operand.operand))
            reported_casts |= casts
            yield self.report(module, operand)

    def report(self, module: ModuleAnalysis, operand: MatmulOperand) -> Diagnostic:
        cast = _latest_cast(operand)
        other = operand.other_names[0] if operand.other_names else None
        text = module.text(operand.operand)
        op_name = "`@`" if operand.op_name == "@" else f"`{operand.op_name.lstrip('.')}`"
        where = f"activation '{other}'" if other else "an activation"
        made = f"is {_made_or_cast(cast)} ({_cast_text(module, cast)})"
        if cast.returned_from and not _own_cast(module, cast, operand):
            # `h = src + pos` with `pos` the helper's: h is float32 because of what it returned
            made = (
                f"is {cast.dtype}: it is computed from what {cast.returned_from}() returns"
                f" (cast to {cast.dtype} inside),"
            )
        message = f"'{text}' {made} but meets {where} in {op_name}, which has the run's dtype"
        if _layer_call(operand):  # `self.fc(x.float())`: the layer's weights are the other side
            message = (
                f"'{text}' {made} but is given to {op_name}, whose weights have the run's dtype"
                " (without autocast the call raises)"
            )
        if other is None:
            return self.diagnostic(module, operand.operand, message)
        message += f"; cast to {other}.dtype instead"
        fix = None
        if _own_cast(module, cast, operand) and (
            other in cast.bound_act_names or other.startswith("self.")
        ):
            # Safe: the original runs only when `other` already has the cast's dtype, and then
            # `.to(other.dtype)` is the same cast.
            fix = make_fix(
                f"Cast with `.to({other}.dtype)`", [_replace_cast(module, cast, other)], safe=True
            )
        return self.diagnostic(module, operand.operand, message, fix)

    def report_promotion(self, module: ModuleAnalysis, operand: MatmulOperand) -> Diagnostic:
        """`out * mask.float()`: the mask's cast promotes the activation it meets."""
        cast = _latest_cast(operand)
        kinds = {c.receiver_kind for c in operand.value.fixed}
        what = "a mask" if kinds == {"mask"} else "an integer tensor"
        other = operand.other_names[0] if operand.other_names else None
        made = f"{what} cast to {cast.dtype} ({_cast_text(module, cast)})"
        if cast.returned_from:  # `coords1 = make_coords_grid(...)`: the cast is in the helper
            made = f"returned in {cast.dtype} by {cast.returned_from}() ({what} cast inside)"
        message = (
            f"'{module.text(operand.operand)}' is {made} and meets "
            + (f"activation '{other}'" if other else "an activation")
            + f" in `{operand.op_name}`: the result is promoted to {cast.dtype}, and a layer"
            " given it in a bf16 model raises"
        )
        if other is None:
            return self.diagnostic(module, operand.operand, message)
        message += f"; cast to {other}.dtype instead"
        fix = None
        own = _own_cast(module, cast, operand) and len(operand.value.fixed) == 1
        if own and other in cast.bound_act_names:
            # Safe for a mask: 0 and 1 are exact in every float dtype, and in a float32 run
            # `.to(other.dtype)` is the same cast. A count is exact in bf16 only up to 256.
            fix = make_fix(
                f"Cast with `.to({other}.dtype)`",
                [_replace_cast(module, cast, other)],
                # a helper's result may be more than its mask (`m.float() * 0.5`): unsafe
                safe=kinds == {"mask"} and not cast.returned_from,
            )
        return self.diagnostic(module, operand.operand, message, fix)


def _latest_cast(operand: MatmulOperand) -> FixedCast:
    return max(operand.value.fixed, key=lambda c: (c.node.lineno, c.node.col_offset))  # type: ignore[attr-defined]


def _own_cast(module: ModuleAnalysis, cast: FixedCast, operand: MatmulOperand) -> bool:
    """The cast a fix replaces must be the operand's own, written in it or on the same variable
    (`w = w.half(); ... w @ v`), not one of several that fed it."""
    return _within(module, cast.node, operand.operand) or _assigned_to(
        module, cast.node, expression_root_name(operand.operand), cast.made
    )


def _derived_from_casts(module: ModuleAnalysis, operand: MatmulOperand) -> bool:
    """The operand holds its casts and nothing else that may be an activation: every cast is
    written in it (`x * mask.float()`) or in the value its name was assigned
    (`ratio = (tokens == m).sum(-1).float() / lengths; x / (1 - ratio)[:, None]`)."""
    names = {node.id for node in walk(operand.operand) if isinstance(node, ast.Name)}
    assigned = [
        stmt.value
        for stmt in module.scan(operand.function.node).nodes
        if isinstance(stmt, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id in names for t in stmt.targets)
    ]
    return all(
        _within(module, cast.node, operand.operand)
        or any(_within(module, cast.node, value) for value in assigned)
        for cast in operand.value.fixed
    )


def _compared(module: ModuleAnalysis, operand: MatmulOperand) -> bool:
    """The promoting operation is an operand of a comparison: its result is a bool tensor."""
    return any(
        isinstance(node, ast.Compare)
        and any(
            operand.op_node is sub for side in (node.left, *node.comparators) for sub in walk(side)
        )
        for node in module.scan(operand.function.node).nodes
    )


def _dtype_guarded(module: ModuleAnalysis, cast: FixedCast, operand: MatmulOperand) -> bool:
    """The cast runs only where a test says a tensor already has its dtype (OPT's attention:
    `if attn_weights.dtype == torch.float16: ... .to(torch.float16)`): it restores the run's
    dtype there, as `.to(x.dtype)` would."""

    def says_its_dtype(test: ast.expr) -> bool:
        return (
            isinstance(test, ast.Compare)
            and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.left, ast.Attribute)
            and test.left.attr == "dtype"
            and FLOAT_DTYPES.get(module.qualify(test.comparators[0]) or "") == cast.dtype
        )

    return _runs_only_where(module, cast, operand, says_its_dtype)


def _not_given_a_tensor(module: ModuleAnalysis, cast: FixedCast, operand: MatmulOperand) -> bool:
    """The cast runs only where a name is no tensor: `if not isinstance(h0, torch.Tensor):`."""

    def no_tensor(test: ast.expr) -> bool:
        return (
            isinstance(test, ast.UnaryOp)
            and isinstance(test.op, ast.Not)
            and isinstance(test.operand, ast.Call)
            and last_name(test.operand.func) == "isinstance"
            and "Tensor" in module.text(test.operand)
        )

    return _runs_only_where(module, cast, operand, no_tensor)


def _runs_only_where(
    module: ModuleAnalysis,
    cast: FixedCast,
    operand: MatmulOperand,
    holds: Callable[[ast.expr], bool],
) -> bool:
    """The cast sits in the body of an `if` of the operand's function whose test `holds`."""
    return any(
        isinstance(node, ast.If)
        and holds(node.test)
        and any(cast.node is sub for stmt in node.body for sub in walk(stmt))
        for node in module.scan(operand.function.node).nodes
    )


def _own_parameter(name: str) -> bool:
    """`self.A_log`: a parameter the module holds itself, which may be kept float32 on purpose;
    not `self.embedding.weight`, a submodule's weight, which `module.to(torch.bfloat16)` converts
    (CodeFormer's `min_encodings.float() @ self.embedding.weight` raises)."""
    return name.startswith("self.") and name.count(".") == 1


def _meets_a_buffer(module: ModuleAnalysis, operand: MatmulOperand) -> bool:
    """The other side is a registered buffer: `module.to(torch.bfloat16)` converts it, and no
    one keeps a buffer float32 by hand as they do a parameter (SAM's
    `coords.to(torch.float) @ self.positional_encoding_gaussian_matrix` raises in bf16)."""
    cls = module.classes.get(operand.function.class_name or "")
    return cls is not None and any(
        name.startswith("self.") and name[5:] in cls.buffers for name in operand.other_names
    )


def _layer_call(operand: MatmulOperand) -> bool:
    """The operand is the input of a torch.nn layer (`self.fc(x.float())`), not of a matmul."""
    return isinstance(operand.op_node, ast.Call) and operand.other_operand is operand.op_node.func


def _broadcast_einsum(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and last_name(node.func) == "einsum"
        and not einsum_contracts(node)
    )


def _cast_start(module: ModuleAnalysis, cast: FixedCast) -> int:
    """The offset of the cast's dot: past the receiver's closing parenthesis, which its node
    leaves out (`(bi - fi).float()`)."""
    source = module.source
    receiver_end = source.offset(source.end(cast.source_node))
    attribute = getattr(cast.node, "func", None)
    if not isinstance(attribute, ast.Attribute):
        return receiver_end
    name_start = source.offset(source.end(attribute)) - len(attribute.attr)
    dot = source.text.rfind(".", receiver_end, name_start)
    return dot if dot >= 0 else receiver_end


def _made_or_cast(cast: FixedCast) -> str:
    if cast.returned_from:
        return f"returned in {cast.dtype}"
    return f"made in {cast.dtype}" if cast.made else f"cast to {cast.dtype}"


def _cast_text(module: ModuleAnalysis, cast: FixedCast) -> str:
    if cast.returned_from:  # `timestep_embedding(t)`: the cast is in the helper
        return f"cast inside {cast.returned_from}()"
    if cast.made:  # `torch.ones(..., dtype=torch.float32)`
        return f"dtype={module.text(cast.node)}"
    source = module.source
    text = source.text[_cast_start(module, cast) : source.offset(source.end(cast.node))]
    given = [k for k in getattr(cast.node, "keywords", ()) if k.arg == "dtype"]
    if not text and given:  # `F.softmax(scores, dim=-1, dtype=torch.float32)`: the cast is there
        return f"dtype={module.text(given[0].value)}"
    return text


def _replace_cast(module: ModuleAnalysis, cast: FixedCast, other: str) -> Edit:
    """`x.half()` / `x.to(torch.float16)` -> `x.to(other.dtype)`: replace the cast's call;
    `dtype=torch.float32` given to a factory -> `dtype=other.dtype`."""
    source = module.source
    if cast.made:
        return Edit(f"{other}.dtype", source.start(cast.node), source.end(cast.node))
    if cast.returned_from:  # `timestep_embedding(t)` -> `timestep_embedding(t).to(x.dtype)`
        return Edit(f".to({other}.dtype)", source.end(cast.node), source.end(cast.node))
    start = source.location_at(_cast_start(module, cast))
    return Edit(f".to({other}.dtype)", start, source.end(cast.node))


def _within(module: ModuleAnalysis, node: ast.AST, container: ast.AST) -> bool:
    """The cast is written in the operand itself (`q.float() @ k.T`): the only cast a fix may
    replace; one made earlier may feed other uses too (`delta = delta.float()`)."""
    source = module.source
    start, end = source.offset(source.start(node)), source.offset(source.end(node))
    return source.offset(source.start(container)) <= start and end <= source.offset(
        source.end(container)
    )


def _assigned_to(
    module: ModuleAnalysis, node: ast.AST, name: str | None, made: bool = False
) -> bool:
    """`weights = torch.softmax(...).half()`: the cast is the whole value of the operand's name
    (so replacing it changes that name only, not another value it also fed); `made`: the
    dtype given to the factory that is the whole value (`k = torch.full(..., dtype=...)`)."""
    return name is not None and any(
        isinstance(stmt, ast.Assign)
        and (
            stmt.value is node
            or (
                made
                and isinstance(stmt.value, ast.Call)
                and any(keyword.value is node for keyword in stmt.value.keywords)
            )
        )
        and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
        for stmt in ast.walk(module.tree)
    )
