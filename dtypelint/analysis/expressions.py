"""Expressions: names, attributes, subscripts, operators, comprehensions."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from dtypelint.analysis.syntax import (
    constant_string,
    defaults_by_param,
    expression_root_name,
    is_int_constant,
    is_self_attribute,
)
from dtypelint.analysis.values import (
    ACT,
    CAMERA,
    CAMERA_PRODUCT,
    COMPLEX,
    DEVICE,
    DTYPE_OF_ACT,
    DTYPE_OF_CAMERA,
    DTYPE_OF_FIXED,
    EMPTY,
    FIXED,
    INT,
    MODULE,
    NONE,
    NUMPY,
    ONE_DIM,
    PY_FLOAT,
    PY_NUMBER,
    SEQUENCE,
    TENSOR_DICT,
    TENSORISH,
    ZERO_DIM,
    ClassInfo,
    FactoryCall,
    Value,
    compared,
    element_of,
    join,
    options_value,
    union,
    union_all,
)
from dtypelint.analysis.vocabulary import (
    FLOAT_DTYPES,
    INT_DTYPES,
    INTEGER_OPERATORS,
    is_counter_name,
)

if TYPE_CHECKING:
    pass


NUMBER = Value(PY_NUMBER)  # shared: a Value is never changed in place
FLOAT_NUMBER = Value(PY_NUMBER | PY_FLOAT)


class ExpressionEvaluation:
    """Evaluating expressions to `Value`s (part of `FunctionFlow`)."""

    def qualify(self, node: ast.AST) -> str | None:
        return self.module.qualify(node, self.env)

    @property
    def in_fixed_precision(self) -> bool:
        """Inside `autocast(enabled=False)` or a `custom_fwd(cast_inputs=...)` function."""
        return self.fixed_precision_depth > 0 or self.info.fixed_precision  # type: ignore[attr-defined]

    def note_callee(self, function: ast.AST) -> None:
        """This function uses one of the file's functions (a call, or passed as a callback)."""
        self.info.callees.add(id(function))  # type: ignore[attr-defined]
        if not self.in_fixed_precision:
            self.info.open_callees.add(id(function))  # type: ignore[attr-defined]

    def eval(self, node: ast.AST | None) -> Value:
        if node is None:
            return EMPTY
        kind = type(node)  # compared by identity: this dispatch runs for every subexpression
        if kind is ast.Name:
            value = self.env.get(node.id)
            if value is not None:
                return value
            function = self.module.local_functions.get(node.id)
            if function is not None:  # used here (called, or passed to `checkpoint(fn, x)`)
                self.note_callee(function)
            alias = self.module.aliases.get(node.id)
            return Value(alias=alias) if alias else EMPTY
        if kind is ast.Constant:
            if node.value is None:
                return NONE
            if isinstance(node.value, (bool, str, bytes)):
                return EMPTY
            if isinstance(node.value, complex):  # `-2.0j * torch.pi * phase`: a complex result
                return Value(COMPLEX)
            return FLOAT_NUMBER if isinstance(node.value, float) else NUMBER
        if kind is ast.Attribute:
            return self.attribute(node)
        if kind is ast.Subscript:
            return self.subscript(node)
        if kind is ast.Call:
            return self.call(node)
        if kind is ast.BinOp:
            left, right = self.eval(node.left), self.eval(node.right)
            operands = [(node.left, left), (node.right, right)]
            if isinstance(node.op, ast.MatMult):
                return self.matmul(node, "@", operands)
            if isinstance(node.op, (ast.Add, ast.Sub)) and (
                left.flags & CAMERA_PRODUCT or right.flags & CAMERA_PRODUCT
            ):
                # `points @ R.mT + t`: the translation meets the rotated points as the rotation
                # did; cast both.
                self.matmul_operands_check(
                    node, "+" if isinstance(node.op, ast.Add) else "-", operands
                )
            meet_kind = "intop" if isinstance(node.op, INTEGER_OPERATORS) else "arith"
            result = self.meet([(node.left, left), (node.right, right)], node, meet_kind)
            return self.arithmetic_result(node.op, [left, right], result)
        if kind is ast.UnaryOp:
            value = self.eval(node.operand)
            return EMPTY if isinstance(node.op, ast.Not) else value
        if kind is ast.Compare:
            operands = [(node.left, self.eval(node.left))]
            operands += [(c, self.eval(c)) for c in node.comparators]
            if all(
                isinstance(op, (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE))
                for op in node.ops
            ):
                self.meet(operands, node, "compare")
                if any(v.flags & TENSORISH or v.tracked for _, v in operands):
                    return compared(operands)
            return EMPTY
        if kind is ast.BoolOp:
            return union_all(self.eval(v) for v in node.values)
        if kind is ast.IfExp:
            self.eval(node.test)
            return union(self.eval(node.body), self.eval(node.orelse))
        if kind in (ast.Tuple, ast.List, ast.Set):
            items = tuple(self.eval(e) for e in node.elts)
            base = union_all(items)
            return Value(
                (base.flags | SEQUENCE) & ~(DEVICE | DTYPE_OF_ACT),
                base.factories,
                base.int_factories,
                base.cameras,
                base.fixed,
                items=items,
            )
        if kind is ast.Dict:
            for key in node.keys:
                self.eval(key)
            values = [self.eval(v) for v in node.values]
            names = [constant_string(key) if key is not None else None for key in node.keys]
            # An additive attention mask travels in a dict of layer options (spandrel's ATD:
            # `params = {"attn_mask": mask}; self.layers(x, params)`): added wherever it goes.
            masks = frozenset(r for v in values for r in v.factories if r.additive_mask)
            if all(names):  # `{"device": x.device}`: options for `**opts`
                options = options_value(dict(zip(names, values)))  # type: ignore[arg-type]
                return replace(options, factories=masks) if masks else options
            return Value(SEQUENCE, masks, items=tuple(values)) if values else EMPTY
        if kind in (ast.ListComp, ast.GeneratorExp, ast.SetComp):
            return self.comprehension(node.generators, [node.elt])
        if kind is ast.DictComp:
            return self.comprehension(node.generators, [node.key, node.value])
        if kind is ast.Starred:
            return self.eval(node.value)
        if kind is ast.NamedExpr:
            value = self.eval(node.value)
            self.assign(node.target, value, node.value)
            return value
        if kind is ast.Await:
            return self.eval(node.value)
        if kind is ast.JoinedStr:
            for part in node.values:
                self.eval(part)
            return EMPTY
        if kind is ast.FormattedValue:
            self.eval(node.value)
            return EMPTY
        if kind is ast.Slice:
            for part in (node.lower, node.upper, node.step):
                self.eval(part)
            return EMPTY
        return EMPTY

    def comprehension(self, generators: list[ast.comprehension], elements: list[ast.expr]) -> Value:
        saved = self.env
        self.env = dict(saved)
        for generator in generators:
            iterable = self.eval(generator.iter)
            self.assign(generator.target, self.iteration_value(generator.iter, iterable), None)
            for condition in generator.ifs:
                self.eval(condition)
        values = [self.eval(e) for e in elements]
        self.env = saved
        element = union_all(values[-1:])
        return Value(
            element.flags | SEQUENCE,
            element.factories,
            element.int_factories,
            element.cameras,
            element.fixed,
        )

    def arithmetic_result(self, op: ast.operator, operands: list[Value], joined: Value) -> Value:
        """Integer tensors become float32 under true division or with a Python float."""
        if joined.is_act or (not joined.flags & INT and not joined.int_factories):
            return joined
        to_float = isinstance(op, ast.Div) or any(v.flags & (PY_FLOAT | NUMPY) for v in operands)
        if isinstance(
            op, (ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor)
        ):
            to_float = False
        if not to_float:
            return joined
        if not joined.int_factories:
            # `grid_coords / (resolution - 1)` of an integer buffer or index tensor: float32
            # by construction, whatever the run's dtype (nerfacc's occupancy grid).
            return Value(FIXED, params=joined.params)
        for record in joined.int_factories:
            record.became_float = True
        return replace(
            joined,
            flags=joined.flags & ~INT,
            factories=joined.factories | joined.int_factories,
            int_factories=frozenset(),
        )

    def attribute(self, node: ast.Attribute) -> Value:
        qualname = self.qualify(node)
        if qualname is not None:
            if qualname in FLOAT_DTYPES or qualname in INT_DTYPES:
                return Value(qualname=qualname)
            return Value(alias=qualname)
        base_node = node.value
        if isinstance(base_node, ast.Name) and base_node.id == "self":
            return self.self_attribute(node.attr)
        base = self.eval(base_node)
        attr = node.attr
        if attr in ("shape",):
            return Value(PY_NUMBER | SEQUENCE)
        if attr in ("ndim",):
            return Value(PY_NUMBER)
        if attr == "device":
            return Value(DEVICE, device_of=expression_root_name(base_node) if base.is_act else None)
        if attr == "dtype":
            if base.is_act:  # a tensor made in it derives from the same parameters
                # upcast on one path (`q = q.float()` if upcasting), then so is what it makes
                upcast = DTYPE_OF_FIXED if base.flags & FIXED and base.fixed else 0
                return Value(DTYPE_OF_ACT | upcast, fixed=base.fixed, params=base.params)
            if base.is_camera:
                return Value(DTYPE_OF_CAMERA, cameras=base.cameras)
            return Value(DTYPE_OF_FIXED, fixed=base.fixed) if base.flags & FIXED else EMPTY
        if attr in ("T", "mT", "H", "mH", "data", "real", "imag"):
            return base
        if base.items is not None and len(base.items) == 2 and attr in ("values", "indices"):
            # `x.max(dim=-1).values` keeps x's dtype; `.indices` are int64
            return base.items[0] if attr == "values" else base.items[1]
        if self.module.camera_names.matches(attr) and (
            base.flags & MODULE or base.is_camera or not base.flags & (ACT | TENSORISH)
        ):
            # `cam.K`, `data.intrinsics`: a camera attribute of some container.
            return Value(CAMERA, cameras=(self.module.text(node),))
        if base.flags & TENSOR_DICT:
            return Value(ACT)
        if base.flags & MODULE:
            return Value(MODULE | ACT)  # `self.fc.weight` or `self.encoder.layer`: either
        return EMPTY

    def mapped(self, node: ast.Call, args: list[tuple[ast.expr, Value]]) -> Value:
        """`map(lambda size: torch.linspace(-1, 1, size, device=d), axis)` (perceiver's axis
        positions): a sequence of what the lambda makes, its parameters each an element."""
        if (
            len(node.args) != 2
            or not isinstance(node.args[0], ast.Lambda)
            or not isinstance(node.args[0].body, ast.Call)
            or not (self.qualify(node.args[0].body.func) or "").startswith(("torch.", "einops."))
        ):
            return EMPTY  # `map(str, ...)`, `map(lambda x: self.f(x), ...)`: not followed
        function, element = node.args[0], element_of(args[1][1])  # evaluated once, by the call
        names = [arg.arg for arg in function.args.args]
        saved = {name: self.env[name] for name in names if name in self.env}
        self.env.update(dict.fromkeys(names, element))
        try:
            made = self.eval(function.body)
        finally:
            for name in names:
                self.env.pop(name, None)
            self.env.update(saved)
        return replace(made, flags=made.flags | SEQUENCE, items=None)

    def self_attribute(self, attr: str) -> Value:
        key = f"self.{attr}"
        if key in self.env:
            return self.env[key]
        cls = self.cls
        if cls is not None and attr in cls.method_nodes:
            self.note_callee(cls.method_nodes[attr])
        if attr in ("dtype",):
            given = cls.plain_attrs.get(attr) if cls is not None else None
            fixed = given is not None and self.qualify(given) in FLOAT_DTYPES
            # `self.dtype = torch.float32` in `__init__` (FLAME): a fixed dtype, not the run's
            return Value(DTYPE_OF_FIXED if fixed else DTYPE_OF_ACT)
        if attr == "device":
            return Value(DEVICE)
        if cls is None:
            return EMPTY
        if attr in cls.int_buffers:
            return Value(INT)  # `module.to(bf16)` leaves integer buffers integer
        if attr in cls.scalar_buffers:
            return Value(ACT | ZERO_DIM)  # the run's dtype, but a number to type promotion
        if attr in cls.parameters or attr in cls.buffers:
            return Value(ACT)
        if attr in cls.submodules:
            return Value(MODULE)
        if attr in cls.methods:
            return EMPTY
        if attr in cls.numpy_attrs and self.module.camera_names.matches(attr):
            return Value(NUMPY | CAMERA, cameras=(key,))  # `self.calib = np.array(...)`
        if self.module.camera_names.matches(attr):
            # A plain attribute: `module.to(torch.bfloat16)` does not convert it. Made as a
            # tensor in __init__, it is DTL005's too (register it) besides DTL002's (cast it).
            records: frozenset[FactoryCall] = frozenset()
            if attr in cls.tensor_attrs and cls.is_module:
                records = frozenset({self.module.attribute_record(cls, attr)})
            return Value(CAMERA, factories=records, cameras=(key,))
        if attr in cls.tensor_attrs and cls.is_module:
            record = self.module.attribute_record(cls, attr)
            if record.integer:
                return Value(INT, int_factories=frozenset({record}))
            return Value(0, factories=frozenset({record}))
        if attr in cls.numpy_attrs:
            return Value(NUMPY)
        given = cls.plain_attrs.get(attr)
        numbers = number_list_value(given) or number_attribute_value(given)
        if numbers is None and isinstance(given, ast.BinOp):  # `self.vx / 2 + pc_range[0]`
            numbers = _init_arithmetic(given, cls)
        if numbers is None:  # `self.pc_range = list(pc_range)`, the default a number tuple
            numbers = _init_number_list(given, cls)
        if numbers is not None:  # `self.mean = [0.485, 0.456, 0.406]`, `self.vx = 0.2`
            return numbers
        if attr not in cls.plain_attrs and cls.is_module:
            # Set elsewhere (a parent class): a submodule when called, a parameter when used.
            return Value(MODULE | ACT)
        return EMPTY

    def subscript(self, node: ast.Subscript) -> Value:
        base = self.eval(node.value)
        key = constant_string(node.slice)
        if key is not None:
            if self.module.camera_names.matches(key):
                return Value(CAMERA, cameras=(self.module.text(node),))
            if base.flags & TENSOR_DICT and is_counter_name(key):
                return Value(PY_NUMBER)  # `samples["epoch"]`, `batch["iters"]`: counters
            if base.flags & TENSOR_DICT or base.is_act:
                return Value(ACT)
            if base.items is not None:
                return join(base.items) if base.items else EMPTY
            return EMPTY
        index = self.eval(node.slice)
        for record in index.int_factories:
            record.used_as_index = True
        if base.flags & ONE_DIM:
            scalar_index = index.flags & PY_NUMBER and not index.flags & (SEQUENCE | TENSORISH)
            if is_int_constant(node.slice) or scalar_index:
                return Value(ZERO_DIM)  # `scales[-1]`, `ts[i]` of a 1-D factory: 0-dim scalars
            if not isinstance(node.slice, ast.Slice):
                base = replace(base, flags=base.flags & ~ONE_DIM)
        if (
            base.items is not None
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, int)
        ):
            index = node.slice.value
            if -len(base.items) <= index < len(base.items):
                return base.items[index]
        if base.flags & SEQUENCE and base.flags & PY_NUMBER and not base.flags & TENSORISH:
            if isinstance(node.slice, ast.Slice):  # `self.pc_range[:3]`: numbers still
                return Value(base.flags & (SEQUENCE | PY_NUMBER | PY_FLOAT))
            return Value(PY_NUMBER | base.flags & PY_FLOAT)  # x.shape[0], `self.mean[0]`
        if base.flags & MODULE:
            return Value(base.flags & (MODULE | ACT))  # self.layers[i], self.experts_weight[i]
        if base.flags & TENSOR_DICT:
            return Value(ACT)
        if base.flags & SEQUENCE and base.items is not None:
            return element_of(base)
        return (
            replace(base, flags=base.flags & ~SEQUENCE, items=None)
            if base.flags & SEQUENCE
            else base
        )


def literal_kind(node: ast.AST, value: Value) -> str | None:
    """float | int | None (a list of tensors: their dtype) for a literal given to torch.tensor()."""
    if isinstance(node, ast.ListComp):
        return "float"
    saw_float = saw_int = saw_unknown = False
    for leaf, leaf_value in literal_leaves(node, value):
        number = leaf.operand if isinstance(leaf, ast.UnaryOp) else leaf
        if isinstance(number, ast.Constant) and isinstance(number.value, (int, float)):
            if isinstance(number.value, float):
                saw_float = True
            else:
                saw_int = True
        elif leaf_value.flags & (ACT | FIXED | CAMERA):
            return None
        elif isinstance(number, ast.BinOp) and isinstance(number.op, ast.Div):
            saw_float = True  # `2 / W`: true division makes a float, even of two ints
        elif leaf_value.flags & PY_FLOAT:
            saw_float = True
        elif leaf_value.flags & PY_NUMBER:
            saw_int = True
        else:
            saw_unknown = True
    if saw_float:
        return "float"
    if saw_int:
        return "int"  # ints beside names we cannot see: `[1, merge, merge]`
    return None if saw_unknown else "float"


def literal_leaves(node: ast.AST, value: Value) -> Iterator[tuple[ast.AST, Value]]:
    if isinstance(node, (ast.List, ast.Tuple)):
        items = (
            value.items if value.items is not None and len(value.items) == len(node.elts) else None
        )
        for index, element in enumerate(node.elts):
            yield from literal_leaves(element, items[index] if items else EMPTY)
    else:
        yield node, value


def number_list_value(node: ast.AST | None) -> Value | None:
    """The value of a literal list/tuple of numbers (`(0.485, 0.456, 0.406)`), else None."""
    if not isinstance(node, (ast.List, ast.Tuple)) or not node.elts:
        return None
    numbers = [e.operand if isinstance(e, ast.UnaryOp) else e for e in node.elts]
    if not all(
        isinstance(n, ast.Constant)
        and isinstance(n.value, (int, float))
        and not isinstance(n.value, bool)
        for n in numbers
    ):
        return None
    floats = any(isinstance(n.value, float) for n in numbers)  # type: ignore[attr-defined]
    return Value(SEQUENCE | PY_NUMBER | (PY_FLOAT if floats else 0))


def number_default_value(node: ast.AST | None) -> Value | None:
    """The value of a parameter whose default is a number (`truncation=-1.0`), else None: a
    number whatever the body does with it, so never a dtype source."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    if not isinstance(node, ast.Constant) or type(node.value) not in (int, float):
        return None
    return Value(PY_NUMBER | PY_FLOAT) if type(node.value) is float else Value(PY_NUMBER)


def number_attribute_value(node: ast.AST | None) -> Value | None:
    """A plain attribute holding a Python number (`self.vx = 0.2`, `self.vx = float(v)`, or
    each of `self.vx, self.vy = (float(v) for v in size)`), else None."""
    if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
        node = node.elt
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
        if node.func.id == "float":
            return Value(PY_NUMBER | PY_FLOAT)
        return Value(PY_NUMBER) if node.func.id == "int" else None
    return number_default_value(node)


def _init_arithmetic(node: ast.expr, cls: ClassInfo, depth: int = 0) -> Value | None:
    """A Python number `__init__` computes from numbers: literals, parameters defaulting to
    numbers or number tuples (`point_cloud_range[0]`), and number attributes (PointPillars'
    `self.x_offset = self.vx / 2 + point_cloud_range[0]`); None if any operand may be a tensor."""
    if depth > 4:
        return None
    if isinstance(node, ast.BinOp):
        left, right = (_init_arithmetic(side, cls, depth + 1) for side in (node.left, node.right))
        if left is None or right is None:
            return None
        floats = (left.flags | right.flags) & PY_FLOAT or isinstance(node.op, ast.Div)
        return Value(PY_NUMBER | (PY_FLOAT if floats else 0))
    if isinstance(node, ast.UnaryOp):
        return _init_arithmetic(node.operand, cls, depth + 1)
    init = cls.method_nodes.get("__init__")
    defaults = defaults_by_param(init) if init is not None else {}
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        numbers = number_list_value(defaults.get(node.value.id))
        return Value(PY_NUMBER | (numbers.flags & PY_FLOAT)) if numbers is not None else None
    if isinstance(node, ast.Name):
        return number_default_value(defaults.get(node.id))
    if is_self_attribute(node):
        given = cls.plain_attrs.get(node.attr)  # type: ignore[attr-defined]
        if isinstance(given, ast.BinOp):
            return _init_arithmetic(given, cls, depth + 1)
        return number_attribute_value(given)
    return number_default_value(node)


def _init_number_list(node: ast.expr | None, cls: ClassInfo) -> Value | None:
    """`self.pc_range = list(pc_range)` (or the parameter itself) with `pc_range=(-6.4, ...)`:
    a list of Python numbers, as the default is."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
        node = node.args[0] if node.func.id in ("list", "tuple") else None
    init = cls.method_nodes.get("__init__")
    if not isinstance(node, ast.Name) or init is None:
        return None
    return number_list_value(defaults_by_param(init).get(node.id))
