"""What helpers hand back: their argument reshaped, or a tensor they made.

A helper that returns its argument reshaped gives back the argument's dtype and origin.

Swin's `window_partition(x)` views and permutes `x` and returns it, so in
`mask_windows = self.window_partition(img_mask)` the result is the float32 `torch.zeros` mask the
caller made, which later meets the attention scores. A call of such a helper gives back the
value it was given (`Summary.passes`), factories included, instead of an unknown activation.

Only shape operations count (views, permutes, reshapes, indexing, padding): the dtype goes
through them unchanged. Arithmetic, casts, and anything mixed with another value do not.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from typing import Any

from dtypelint.analysis.summaries import summary_role
from dtypelint.analysis.syntax import last_name, zero_element_shape
from dtypelint.analysis.values import (
    ACT,
    BINDING,
    BOOL,
    CAMERA,
    FIXED,
    INT,
    NUMPY,
    ZERO_DIM,
    FactoryCall,
    Summary,
    Value,
    bound_on_every_path,
    join,
    union_all,
)

#: Factories whose first arguments are sizes (`torch.zeros((0, 6))`: no elements at all).
SIZED_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "rand", "randn"})
#: Tensor methods that change the shape or layout, never the dtype.
SHAPE_METHODS = frozenset(
    {"view", "reshape", "permute", "transpose", "contiguous", "flatten", "unflatten", "squeeze",
     "unsqueeze", "expand", "expand_as", "repeat", "clone", "detach", "flip", "roll", "narrow",
     "movedim", "swapaxes", "mT", "T", "view_as", "reshape_as", "tile", "repeat_interleave"}
)  # fmt: skip
#: The same as functions (`torch.roll(x, ...)`, `F.pad(x, ...)`): the first argument is reshaped.
SHAPE_FUNCTIONS = frozenset(
    {"reshape", "permute", "transpose", "flatten", "unflatten", "squeeze", "unsqueeze", "flip",
     "roll", "narrow", "movedim", "swapaxes", "tile", "repeat_interleave", "pad", "rearrange"}
)  # fmt: skip


def returned_parameter(
    func: ast.FunctionDef | ast.AsyncFunctionDef,
    nodes: list[ast.AST],
    returns: Sequence[Value],
    params: Sequence[str],
) -> str | None:
    """The parameter every return of `func` gives back reshaped (`Summary.passes`), if any.
    `returns`: what the function's walk found its returns hold (one parameter's provenance);
    `nodes`: the function's nodes (syntax.walk)."""
    derived = {value.params for value in returns}
    if len(derived) != 1 or any(value.items is not None for value in returns):
        return None
    (origins,) = derived
    if len(origins) != 1:
        return None
    (param,) = origins
    return param if param in params and passed_parameter(func, nodes, param) else None


def passed_parameter(
    func: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST], param: str
) -> bool:
    """Whether every `return` of `func` gives back parameter `param` through shape operations
    only (through local names, each assigned only such values)."""
    assigned: dict[str, list[ast.expr | None]] = {}
    simple_targets: set[int] = set()
    returns: list[ast.expr | None] = []
    for node in nodes:
        if node is not func and isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
        ):
            return False  # a nested function could rebind names: not worth following
        if isinstance(node, ast.Return):
            returns.append(node.value)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
                    simple_targets.add(id(target))
    for node in nodes:  # bound any other way (unpacking, loops, `with`, `+=`): not followed
        if (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Store)
            and id(node) not in simple_targets
        ):
            assigned.setdefault(node.id, []).append(None)
    if not returns:
        return False
    return all(value is not None and _carries(value, param, assigned, set()) for value in returns)


def _carries(
    node: ast.expr, param: str, assigned: dict[str, list[ast.expr | None]], seen: set[str]
) -> bool:
    if isinstance(node, ast.Name):
        if node.id in seen:
            return True  # `x = x.view(...)`: the name's other values decide
        values = assigned.get(node.id)
        if values is None:
            return node.id == param
        # Each value the name can hold (the parameter's own on paths that skip the assignments).
        return (node.id == param or bool(values)) and all(
            value is not None and _carries(value, param, assigned, seen | {node.id})
            for value in values
        )
    if isinstance(node, ast.Subscript):
        return _carries(node.value, param, assigned, seen)
    if isinstance(node, ast.Attribute) and node.attr in ("mT", "T"):
        return _carries(node.value, param, assigned, seen)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in SHAPE_METHODS:
            return _carries(func.value, param, assigned, seen)
        if last_name(func) in SHAPE_FUNCTIONS and node.args:
            return _carries(node.args[0], param, assigned, seen)
    return False


def fresh_factory(returns: Sequence[Value]) -> tuple[str | None, str | None]:
    """`def generate_coordinate(h, w, device): ... return torch.linspace(...)`-like helpers: every
    return is a float tensor made inside without `dtype=`, from no parameter's tensor. A caller
    whose activations meet it meets a float32 tensor (`Summary.fresh`): where it was made; and
    the parameter that gives every such factory's `dtype=` (None by default), if one does
    (`Summary.fresh_dtype_param`): a caller passing it gets that dtype."""
    made = [fresh_records(value) for value in returns]
    if not made or not all(made):
        return None, None
    first = min((r for records in made for r in records), key=_position)
    params = {r.dtype_param for records in made for r in records}
    where = f"{first.func_text}(...) on line {first.node.lineno}"  # type: ignore[attr-defined]
    return where, params.pop() if len(params) == 1 else None


def fresh_records(value: Value) -> tuple[FactoryCall, ...]:
    """The factories of a returned value made here without `dtype=`, from no parameter's tensor,
    and meeting no activation here (`fresh_factory`'s returns, and a tuple's "fresh" items:
    `bias = torch.zeros(B, 1, 1, N, device=qkv.device)` in `return q, k, v, bias`), in order."""
    if (
        value.flags & (ACT | CAMERA | FIXED | INT | BOOL | ZERO_DIM)
        or value.params
        or value.items is not None
    ):
        return ()
    # an integer `arange` made float by arithmetic (`torch.arange(h) + 0.5`) is float32 too
    records = [
        r for r in value.factories if r.origin == "factory" and (not r.integer or r.became_float)
    ]
    if not records or len(records) != len(value.factories):
        return ()
    if all(empty_placeholder(r) for r in records):
        return ()  # yolov5's NMS: `[torch.zeros((0, 6))] * bs`, replaced per detection
    if any(meet.function is r.function for r in records for meet in r.meets):
        return ()  # it meets activations in the helper: reported (and fixed) there
    return tuple(sorted(records, key=_position))


def _position(record: FactoryCall) -> tuple[int, int]:
    return record.node.lineno, record.node.col_offset  # type: ignore[attr-defined]


def tuple_roles(
    returns: Sequence[Value],
) -> tuple[tuple[str | None, ...] | None, tuple[tuple[FactoryCall, ...], ...]]:
    """`return P, P_T, P_inv, emb`: each position's role when every return is such a tuple
    (`Summary.items`), and each "fresh" position's factories (`Summary.fresh_items`)."""
    if not returns or any(value.items is None for value in returns):
        return None, ()
    sizes = {len(value.items) for value in returns}  # type: ignore[arg-type]
    if len(sizes) != 1:
        return None, ()
    roles: list[str | None] = []
    made: list[tuple[FactoryCall, ...]] = []
    for position in range(sizes.pop()):
        value = union_all([value.items[position] for value in returns])  # type: ignore[index]
        role = summary_role(value)
        records = fresh_records(value) if role is None else ()
        roles.append("fresh" if records else role)
        made.append(records)
    return tuple(roles), (tuple(made) if any(made) else ())


def numpy_return(returned: Sequence[Value]) -> tuple[bool, bool]:
    """Whether every return is NumPy's (float64 by default): a tensor made from a NumPy array
    (`Summary.numpy`), or the array itself (`Summary.numpy_array`: `make_anchor_centers(h, w)`
    returning `np.stack(...)`, which `torch.tensor(...)` at the call makes float64)."""
    if any(record.numpy_data for value in returned for record in value.factories):
        return True, False
    arrays = bool(returned) and all(
        value.flags & NUMPY and not value.flags & (ACT | CAMERA | FIXED) for value in returned
    )
    return False, arrays


def returned_casts(returns: Sequence[Value]) -> tuple[tuple[str, str], ...]:
    """The (dtype, receiver kind) of the explicit casts every return went through
    (`Summary.fixed_casts`), or () where one return has none (`timestep_embedding`: `t.float()`
    times a float32 table, whose result a bf16 layer of the caller's raises on). A return that
    may be an activation (`x.float()` on one branch only) or a tuple says nothing; nor does a
    helper whose casts met activations inside (`FunctionFlow.cast_meetings`): it reports them
    there, and its callers meet the hazard one fix inside removes."""
    if not returns or any(value.items is not None for value in returns):
        return ()
    found: dict[tuple[str, str], None] = {}
    for value in returns:
        if not value.flags & FIXED or not value.fixed or value.flags & (ACT | CAMERA | ZERO_DIM):
            return ()
        found.update(dict.fromkeys((cast.dtype, cast.receiver_kind) for cast in value.fixed))
    return tuple(found)


def kept_parameter(returned: Sequence[Value], params: Sequence[str]) -> str | None:
    """The parameter whose dtype every returned value has (`Summary.keeps`): each is computed
    from that parameter alone (its arithmetic, and tensors made in its `.dtype`), and is neither
    cast, nor a camera, nor mixed with a tensor made without `dtype=`."""
    derived = {value.params for value in returned}
    if len(derived) != 1 or any(
        value.flags & (FIXED | CAMERA | INT | BOOL) or value.tracked or value.items is not None
        for value in returned
    ):
        return None
    (origins,) = derived
    return next(iter(origins)) if len(origins) == 1 and set(origins) <= set(params) else None


def chosen_parameters(
    func: ast.FunctionDef | ast.AsyncFunctionDef, nodes: list[ast.AST], params: Sequence[str]
) -> tuple[str, ...]:
    """The parameters one of which every `return` gives back as given (`Summary.chooses`):
    lucidrains' `default(val, d)`, `return val if exists(val) else (d() if callable(d) else d)`.
    Two or more, none rebound in the body; otherwise (). `nodes`: the function's (syntax.walk)."""
    chosen: list[str] = []
    returns = 0
    for node in nodes:
        if node is not func and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return ()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id in params:
            return ()  # `val = ...`: not the argument as given
        if isinstance(node, ast.Return):
            returns += 1
            leaves = _choices(node.value)
            if leaves is None or not set(leaves) <= set(params):
                return ()
            chosen += [leaf for leaf in leaves if leaf not in chosen]
    return tuple(chosen) if returns and len(chosen) > 1 else ()


def _choices(node: ast.expr | None) -> list[str] | None:
    """The names an expression can evaluate to as is: `a if c else b`, `a or b`, `d()`."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.IfExp):
        body, orelse = _choices(node.body), _choices(node.orelse)
        return None if body is None or orelse is None else body + orelse
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        parts = [_choices(value) for value in node.values]
        return None if any(p is None for p in parts) else [n for p in parts for n in p or []]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args:
        return [node.func.id]  # `d()`: a callable default (`lambda: torch.randn_like(x)`)
    return None


def given_back(
    func: ast.FunctionDef | ast.AsyncFunctionDef,
    nodes: list[ast.AST],
    returned: Sequence[Value],
    params: Sequence[str],
) -> dict[str, Any]:
    """A summary's `keeps` and `chooses`: which arguments' dtypes come back from a call."""
    # Walk the body for `chooses` only where every return comes from parameters, two or more in
    # all (`return v if exists(v) else d` is one return from both): a walk of every function
    # summarised cost 8 % of a check
    derived = all(value.params for value in returned)
    choice = derived and len({p for value in returned for p in value.params}) > 1
    return {
        "keeps": kept_parameter(returned, params),
        "chooses": chosen_parameters(func, nodes, params) if choice else (),
    }


def empty_placeholder(record: FactoryCall) -> bool:
    """`torch.empty((0, 3))`, `torch.zeros(0)`: a tensor of sizes with a literal 0 among them.
    A data or range factory's arguments are values, not sizes: `torch.tensor([0.0])` holds one
    element and `torch.linspace(0, 1, n)` n of them."""
    return record.factory in SIZED_FACTORIES and zero_element_shape(record.node)


def mark_alternatives(values: Sequence[Value]) -> None:
    """Values that are either of `values` (branches joining, `default(noise, torch.randn())`):
    a factory beside an activation is that activation's alternative, used where no activation
    is, and meets what the activation meets. An empty placeholder (`torch.empty((0, 3))` when
    there are no samples) holds no values to promote: not an alternative that meets."""
    if any(value.is_act for value in values):
        for value in values:
            if value.tracked and not value.is_act:
                for record in value.factories:
                    if not empty_placeholder(record):
                        record.path_alternative = True


def alternatives(chosen: Sequence[Value]) -> Value:
    """The value of a call choosing among its arguments (`default(noise, torch.randn(...))`)."""
    mark_alternatives(chosen)
    either = union_all(chosen)
    # `default(gate, sim[:, 0])` is never None when one choice never is: that is its purpose
    return bound_on_every_path(either) if any(not v.flags & BINDING for v in chosen) else either


def camera_returned(
    summary: Summary,
    name: str,
    received: dict[str, tuple[ast.expr, Value]],
    camera_parameter: Callable[[ast.expr], bool],
) -> Value:
    """The value of a call whose summary returns a camera. Where that camera comes from the
    callee's parameters alone (`inverse_transformation(trans_12)`), their names were a hint:
    activations given for them (`inverse_transformation(ref_pose_base)`) come back as one."""
    given = [received[p] for p in summary.camera_params if p in received]
    hinted = any(value.is_camera or camera_parameter(arg) for arg, value in given)
    if given and not hinted and all(value.is_act for _, value in given):
        return join(value for _, value in given)
    return Value(CAMERA, cameras=(f"{name}(...)",))
