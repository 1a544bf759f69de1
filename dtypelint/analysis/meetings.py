"""Meetings: where a factory's value meets an activation, camera operands of matmuls, writes.

Part of `FunctionFlow` (a mixin, like `expressions`, `calls` and `torch_calls`): the events rules
read are recorded here, and so are the parameter meetings a function's summary is made of.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from dtypelint.analysis.syntax import (
    arithmetic_spine,
    is_self_attribute,
    last_name,
    names_in_order,
    walk,
)
from dtypelint.analysis.values import (
    ACT,
    BOOL,
    CAMERA_PRODUCT,
    COMPLEX,
    EMPTY,
    FIXED,
    INT,
    MODULE,
    ZERO_DIM,
    MatmulOperand,
    Meet,
    Summary,
    Value,
    dtype_source,
    join,
    masks_or_counts,
    promoted,
)
from dtypelint.analysis.vocabulary import (
    ELEMENTWISE_FUNCS,
    MATMUL_METHODS,
    OPERATOR_SYMBOLS,
    ROUNDING_METHODS,
)


class MeetingRecorder:
    """Recording meetings with activations (part of `FunctionFlow`)."""

    def mark_indices(
        self,
        args: Iterable[tuple[ast.AST, Value]],
        node: ast.AST | None = None,
        data: Sequence[tuple[ast.AST | None, Value]] = (),
    ) -> None:
        """Index and mask arguments: int factories there must stay integer; a module's plain
        tensor used as the mask of an activation still meets it (`.cuda()` skips it)."""
        acts = [(n, v) for n, v in data if v.is_act]
        for _, value in args:
            for record in value.int_factories:
                record.used_as_index = True
            if acts and node is not None and self.info.is_tensor_taking:
                for record in value.factories | value.int_factories:
                    if record.origin == "attribute":
                        meet = Meet(
                            node,
                            "mask",
                            acts[0][0],
                            self.act_names(acts),
                            self.in_autocast,
                            self.info,
                            self.in_fixed_precision,
                        )
                        record.meets.append(meet)

    def _note_parameter_meetings(self, operands: list[tuple[ast.AST | None, Value]]) -> None:
        """For the summary: which parameters meet each other, which meet activations."""
        tagged = [value for _, value in operands if value.params]
        if not tagged:
            return
        for value in tagged:
            for other in (v for _, v in operands if v is not value):
                for p in sorted(value.params):  # sorted: a set's order changes between runs
                    for q in sorted(other.params):
                        if p != q:
                            self.param_pairs.setdefault((p, q))
                if other.is_act and not other.params:
                    for p in sorted(value.params):
                        self.params_meeting_acts.setdefault(p)

    def mark_written(self, container: Value, written: Value) -> None:
        """`buf[idx] = act`, `buf += act`, `buf.copy_(act)`: a float buffer takes the activations'
        dtype once fixed; the next walk of the module treats it (and what derives from it) so."""
        if not written.is_act or written.factories & container.factories:
            return
        for record in container.factories:
            if record.origin == "factory" and not record.integer:
                record.written_into = True
                self.module.written.add(id(record.node))

    def meet(
        self,
        operands: list[tuple[ast.AST | None, Value]],
        node: ast.AST,
        kind: str,
        keep_left: bool = False,
    ) -> Value:
        """Record tracked values meeting activations, and return the combined value."""
        if not (keep_left or kind == "index"):  # written into the left one: it keeps its dtype
            self._note_parameter_meetings(operands)
        if kind in ("arith", "cat") and self.info.is_tensor_taking and _elementwise(node):
            self._cast_meetings(operands, node)
        # A factory already mixed with an explicitly cast value (`cat([eye, rot.float()])`)
        # has the cast's dtype whatever its own: the cast, not the factory, decides.
        tracked = [
            (i, v)
            for i, (_, v) in enumerate(operands)
            if v.tracked and not v.flags & (FIXED | COMPLEX)
        ]
        if not self.info.is_tensor_taking:
            tracked = []
        if kind == "strict" and len(tracked) >= 2:
            # `ce.scatter_add_(1, idx, torch.ones(...))`: one dtype for both; fixing one alone
            # would make the op raise, so the fix of either changes both.
            records = [r for _, v in tracked for r in v.factories if not r.integer]
            for record in records:
                record.partners.update(r for r in records if r is not record)
        if not (keep_left or kind == "index"):  # `t[:, i] = t_i`: the destination decides
            self._note_companions(operands, tracked)
        if keep_left or kind == "index":
            # Written into an activation (`x[i] = v`, `x.add_(v)`, `x.copy_(v)`), a value takes
            # the destination's dtype: only a destination of ours is a hazard (it keeps its own).
            tracked = [(i, v) for i, v in tracked if i == 0]
        for index, value in tracked:
            # `if bias is None: bias = torch.zeros(...)` joins an activation and a factory: the
            # factory path still meets the *other* operands' activations.
            if value.is_act and not any(r.becomes_act for r in value.factories):
                continue
            # Values carrying this very buffer are not what it meets (`buf[1:] - buf[:-1]`); in
            # elementwise operations a 0-dim activation (`rand(n) < self.p`) is a number to type
            # promotion: the factory's dtype decides, nothing of the run's is promoted.
            acts = [
                (n, v)
                for i, (n, v) in enumerate(operands)
                if v.is_act
                and i != index
                and not (v.factories & value.factories)
                and not (v.flags & ZERO_DIM and kind in ("arith", "accumulate", "compare"))
            ]
            if not acts:
                continue
            meet = Meet(
                node,
                kind,
                acts[0][0],
                self.act_names(acts),
                self.in_autocast,
                self.info,
                self.in_fixed_precision,
                frozenset().union(*(v.params for _, v in acts)),
            )
            self.meets_at.setdefault(id(node), []).append(meet)
            for record in value.factories:
                if value.is_act and not record.becomes_act:
                    continue
                record.meets.append(meet)
            for record in value.int_factories:
                # `[0, 1, 0]` is a float quantity written with ints; `[0]` is an offset, large
                # literals are hash primes: integer math. An int64 `arange` meets floats only
                # where an op needs one dtype for its data (a matmul), not as an index.
                float_quantity = (
                    record.int_literal_vector
                    and record.largest_literal < 2**24
                    and record.literal_count >= 2
                )
                if (meet.strict and float_data_op(node)) or (
                    float_quantity and kind in ("arith", "accumulate", "cat", "index")
                ):
                    record.meets.append(meet)
        if keep_left and operands:
            return operands[0][1]
        return join(v for _, v in operands)

    def _cast_meetings(self, operands: list[tuple[ast.AST | None, Value]], node: ast.AST) -> None:
        """`out * mask.float()`, `cat([x, grid.float()])`: a mask or a count cast to a fixed dtype
        promotes the activation it meets (bf16 to float32), and the next bf16 layer raises
        (DTL003 reads these with the matmul operands). A cast activation (`x.float() * r`) is
        left alone: an upcast region such as an RMS norm's, cast back where it ends."""
        for index, (operand, value) in enumerate(operands):
            casts = value.fixed
            if operand is None or value.flags & (ACT | ZERO_DIM) or not value.flags & FIXED:
                continue
            if not masks_or_counts(casts):
                continue
            others = [
                (n, v)
                for i, (n, v) in enumerate(operands)
                if i != index
                and n is not None
                and v.is_act
                and not v.flags & (ZERO_DIM | INT | BOOL | MODULE | COMPLEX)
                and (not v.flags & FIXED or promoted(v))
            ]
            if others:
                op_name = OPERATOR_SYMBOLS.get(type(getattr(node, "op", None)), "")
                op_name = op_name or last_name(getattr(node, "func", node)) or "op"
                names = self.act_names(others)
                self._record_operand(operand, value, node, op_name, others[0][0], names, True)

    @staticmethod
    def _note_companions(
        operands: list[tuple[ast.AST | None, Value]], tracked: list[tuple[int, Value]]
    ) -> None:
        """Factories' values meeting each other (`FactoryCall.companions`)."""
        plain = [(i, v) for i, v in tracked if not v.is_act]
        if len(plain) < 2:
            return
        for index, value in plain:
            for other_index, other in plain:
                if other_index == index or other.factories & value.factories:
                    continue
                for record in value.factories:
                    if record.origin != "factory" or record.integer:
                        continue
                    record.companions += [
                        (companion, operands[other_index][0])
                        for companion in other.factories
                        if companion.origin == "factory" and not companion.integer
                    ]

    def meet_through(
        self, node: ast.Call, summary: Summary, received: dict[str, tuple[ast.expr, Value]]
    ) -> None:
        """`hist(tiles, torch.linspace(...))`, `hist` computing `tiles - bins`: they meet there."""
        # In the order they meet inside: the first meeting names the finding's activation.
        for first, second in summary.param_pairs:
            if first in received and second in received:
                self.meet([received[first], received[second]], node, "arith")
        for param in summary.params_meeting_acts:
            if param in received:
                self.meet([received[param], (None, Value(ACT))], node, "helper")
        # `self._pe_encoding(coords.to(torch.float))`, the method multiplying its argument with
        # the module's own tensor (a bf16 buffer): the cast meets that tensor there (DTL003)
        own = is_self_attribute(node.func)
        for param, act in summary.param_products if own else ():
            given, value = received.get(param, (None, EMPTY))
            cast = given is not None and value.flags & FIXED and value.fixed and not value.is_act
            if cast and act.startswith("self."):
                self._record_operand(given, value, node, ast.unparse(node.func), None, (act,))

    def act_names(self, acts: list[tuple[ast.AST | None, Value]]) -> tuple[str, ...]:
        """Names holding activations inside the activation operands, in source order."""
        names: list[str] = []
        for node, _ in acts:
            if node is None:
                continue
            for sub in names_in_order(node):
                if sub in names:
                    continue
                value = (
                    self.env.get(sub)
                    if not sub.startswith("self.")
                    else self.self_attribute(sub[5:])
                )
                if sub.startswith("self.") and self.cls and sub[5:] in self.cls.conditional_attrs:
                    continue  # `self.w_avg` registered only for some options: maybe missing
                if value is not None and dtype_source(value):
                    names.append(sub)
        if not names:
            names = self._submodule_weights(acts)
        return tuple(names)

    def _submodule_weights(self, acts: list[tuple[ast.AST | None, Value]]) -> list[str]:
        """`self.embedding.weight` in the activation operands, when no name holds one: a
        submodule's weight has the module's dtype, and its `.dtype` (not the submodule's) is a
        dtype source. The code reads it, so it exists; one defined under a condition may not."""
        found: list[str] = []
        for node, value in acts:
            if node is None or value.flags & FIXED:
                continue
            for sub in walk(node):
                if not (
                    isinstance(sub, ast.Attribute)
                    and sub.attr == "weight"
                    and is_self_attribute(sub.value)
                ):
                    continue
                owner = sub.value.attr  # type: ignore[attr-defined]
                if self.cls is None or owner in self.cls.conditional_attrs:
                    continue
                if (
                    self.self_attribute(owner).flags & MODULE
                    and f"self.{owner}.weight" not in found
                ):
                    found.append(f"self.{owner}.weight")
        return found

    def record_return(self, node: ast.expr, value: Value) -> None:
        values = value.items if value.items is not None else (value,)
        for item in values:
            if item.tracked and not item.is_act:
                meet = Meet(
                    node, "return", None, (), self.in_autocast, self.info, self.in_fixed_precision
                )
                for record in item.factories:
                    record.meets.append(meet)

    def matmul(
        self, node: ast.AST, op_name: str, operands: list[tuple[ast.AST | None, Value]]
    ) -> Value:
        """A matmul-family operation: camera and cast operands checked, meetings recorded."""
        scan = self.module.scan(self.node)
        numpy_code = scan.numpy_calls and not scan.torch_evidence  # `np.asarray(Ms)`, no torch
        if self.module.imports_numpy and (not self.module.imports_torch or numpy_code):
            return join(v for _, v in operands)  # NumPy's `R.dot(points.T)`: no tensors here
        self.matmul_operands_check(node, op_name, operands)
        result = self.meet(operands, node, "matmul")
        autocast = self.autocast_depth > 0 or self.info.autocast  # an enabled region
        if autocast and result.flags & FIXED:  # it computes the product in its own dtype
            result = replace(result, flags=(result.flags | ACT) & ~FIXED, fixed=frozenset())
        values = [value for _, value in operands]
        if any(v.is_camera for v in values) and any(v.is_act for v in values):
            result = replace(result, flags=result.flags | CAMERA_PRODUCT)
        self._note_parameter_products(operands)
        return result

    def _note_parameter_products(self, operands: list[tuple[ast.AST | None, Value]]) -> None:
        """For the summary: parameters that are operands of a product with the function's own
        activations (`coords @ self.gaussian`), with that activation's name."""
        given = [v for _, v in operands if v.params and v.is_act]
        if not given:
            return
        own = [(n, v) for n, v in operands if v.is_act and not v.params and n is not None]
        for name in self.act_names(own)[:1]:
            for value in given:
                for param in sorted(value.params):
                    self.param_products.setdefault((param, name))

    def matmul_operands_check(
        self, node: ast.AST, op_name: str, operands: list[tuple[ast.AST | None, Value]]
    ) -> None:
        """Record matmul operands facing an activation (DTL002/DTL003 read these)."""
        if not self.info.is_tensor_taking:
            return
        for index, (operand, value) in enumerate(operands):
            # An operand upcast on one path (`if _ATTN_PRECISION == "fp32": q = q.float()`) is
            # one on that path, whatever it is on the others.
            if operand is None or (value.is_act and not (value.flags & FIXED and value.fixed)):
                continue
            if not (value.is_camera or value.flags & FIXED):
                continue
            # An operand that is an activation on one path and upcast on another is no clear side.
            others = [
                (n, v)
                for i, (n, v) in enumerate(operands)
                if i != index and v.is_act and not v.flags & FIXED and n is not None
            ]
            if not others:
                continue
            other_node = others[0][0]
            self._record_operand(operand, value, node, op_name, other_node, self.act_names(others))

    def _record_operand(
        self,
        operand: ast.AST,
        value: Value,
        node: ast.AST,
        op_name: str,
        other_operand: ast.AST | None,
        other_names: tuple[str, ...],
        elementwise: bool = False,
    ) -> None:
        """A matmul operand facing an activation, where it is (autocast, fixed precision)."""
        if value.flags & FIXED:
            self.cast_meetings += 1
        self.module.matmul_operands.append(
            MatmulOperand(
                operand=operand,
                value=value,
                op_node=node,
                op_name=op_name,
                other_operand=other_operand,  # type: ignore[arg-type]
                other_names=other_names,
                function=self.info,
                autocast=self.autocast_depth > 0 or self.info.autocast,
                fixed_precision=self.in_fixed_precision,
                elementwise=elementwise,
            )
        )

    def rounded(self, name: str, node: ast.AST) -> None:
        """`(x + offsets).ceil()`, `.long()`: the meetings that made `node` are index math; and
        `x.ceil_()` rounds `x` itself, so the meetings its assignments made are too."""
        if name.rstrip("_") not in ROUNDING_METHODS:
            return
        found = list(self.meets_at.get(id(node), ()))
        if name.endswith("_") and isinstance(node, ast.Name):
            found += self._meets_assigned(node.id, set())
        for meet in found:
            meet.rounded = True

    def python_list(self, node: ast.expr) -> bool:
        """`output[xi] = x` with `output = [torch.zeros(...)] * n`: a list's slot is replaced,
        nothing is written into a tensor (YOLO's NMS placeholders)."""
        made = self.assigned_from.get(node.id, ()) if isinstance(node, ast.Name) else ()
        return bool(made) and all(_list_literal(value) for value in made)

    def _meets_assigned(self, name: str, seen: set[str]) -> list[Meet]:
        """The meetings made in the expressions `name` was assigned from (through the names in
        them: `x = x.unsqueeze(3).repeat(...)` after `x = y + offsets`)."""
        seen.add(name)
        found: list[Meet] = []
        for source in self.assigned_from.get(name, ()):
            for node in walk(source) if source is not None else ():
                found += self.meets_at.get(id(node), ())
                if isinstance(node, ast.Name) and node.id not in seen:
                    found += self._meets_assigned(node.id, seen)
        return found

    def in_place(self, stmt: ast.AugAssign, current: Value, value: Value, mark: int) -> Value:
        """`x += v`: in place a tensor keeps its dtype (`points += noise`), so only our buffer on
        the left counts; and a cast promoting `v` (`x += (1 - m.float()) * e`, SAM2's no-object
        embedding) promotes nothing of `x`: its records since `mark` are dropped."""
        kind = "matmul" if isinstance(stmt.op, ast.MatMult) else in_place_kind(stmt, current)
        keep_left = kind == "arith" and current.is_act and not current.tracked
        if keep_left:
            spine = arithmetic_spine(stmt.value)
            recorded = self.module.matmul_operands
            recorded[mark:] = [
                o for o in recorded[mark:] if not (o.elementwise and id(o.op_node) in spine)
            ]
        result = self.meet([(stmt.target, current), (stmt.value, value)], stmt, kind, keep_left)
        if kind != "accumulate":  # a float32 sum stays float32: nothing of the run's is in it
            self.mark_written(current, value)
        return result

    def parameter_meetings(self) -> dict[str, Any]:
        """What the function's summary says of its parameters' meetings (`Summary`)."""
        return {
            "param_pairs": tuple(self.param_pairs),
            "params_meeting_acts": tuple(self.params_meeting_acts),
            "param_products": tuple(self.param_products),
            "layer_params": tuple(self.layer_params.items()),
        }


def float_data_op(node: ast.AST) -> bool:
    """An op whose operands must share one floating dtype as data (a matmul, `cross`, a
    convolution, `grid_sample`), unlike scatter-like ops, where an int64 tensor is an index."""
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, ast.MatMult)
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = last_name(func)
    return name in MATMUL_METHODS or name.startswith(
        ("matmul", "einsum", "linear", "cross", "conv", "grid_sample", "scaled_dot", "bilinear")
    )


def _list_literal(node: ast.AST | None) -> bool:
    """`[...]`, `[... for ...]`, `[...] * n`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _list_literal(node.left) or _list_literal(node.right)
    return isinstance(node, (ast.List, ast.ListComp))


def in_place_kind(stmt: ast.AugAssign, target: Value) -> str:
    """`preds[..., y:y2] += logits` into a buffer of ours: a float32 sum on purpose."""
    summing = isinstance(stmt.op, (ast.Add, ast.Sub)) and bool(target.factories)
    return "accumulate" if summing else "arith"


def _elementwise(node: ast.AST) -> bool:
    """`a * b`, `torch.cat([...])`, `torch.mul(a, b)`: promotes to the widest operand dtype."""
    return (
        isinstance(node, ast.BinOp) or last_name(getattr(node, "func", node)) in ELEMENTWISE_FUNCS
    )
