"""Small helpers over Python `ast` nodes shared by the analysis."""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

#: what an argument evaluated to (the analysis' Value: syntax.py sits below values.py)
T = TypeVar("T")


def dotted_name(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def expression_root_name(node: ast.AST) -> str | None:
    """The simple name or `self.attr` an expression starts from (`x` in `x[:, 0].mean()`)."""
    while True:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                return f"self.{node.attr}"
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        else:
            return None


def constant_string(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def keyword(call: ast.Call, name: str) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def has_star_kwargs(call: ast.Call) -> bool:
    return any(kw.arg is None for kw in call.keywords)


def is_literal_false(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def is_empty_shape(node: ast.AST) -> bool:
    return isinstance(node, (ast.Tuple, ast.List)) and not node.elts


def import_aliases(stmt: ast.Import | ast.ImportFrom) -> Iterator[tuple[str, str]]:
    """(local name, qualified name) pairs bound by an import statement."""
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                yield alias.asname, alias.name
            else:
                top = alias.name.split(".")[0]
                yield top, top
    elif stmt.module and not stmt.level:
        for alias in stmt.names:
            if alias.name != "*":
                yield alias.asname or alias.name, f"{stmt.module}.{alias.name}"


@functools.lru_cache(maxsize=4096)
def canonical(qualname: str) -> str:
    """Spellings of the same torch object mapped to one name (cached: a pure function of a few
    hundred names, called for every dotted name the analysis qualifies)."""
    if qualname.startswith("numpy."):
        return qualname
    for prefix, replacement in (
        ("torch.nn.functional.", "torch.nn.functional."),
        ("torch.functional.", "torch."),
        ("torch.linalg.", "torch.linalg."),
        ("torch.Tensor.", "torch."),
        ("torch.cuda.amp.autocast_mode.", "torch.cuda.amp."),
    ):
        if qualname.startswith(prefix):
            return replacement + qualname[len(prefix) :]
    return qualname


def is_self_attribute(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def child_blocks(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if block:
            yield block
    for handler in getattr(stmt, "handlers", ()):
        yield handler.body
    for case in getattr(stmt, "cases", ()):
        yield case.body


def class_definitions(body: Sequence[ast.stmt]) -> Iterator[ast.ClassDef]:
    """Class definitions among statements (nested ones too), without walking expressions."""
    for stmt in body:
        if isinstance(stmt, ast.ClassDef):
            yield stmt
            yield from class_definitions(stmt.body)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from class_definitions(stmt.body)
        else:
            for block in child_blocks(stmt):
                yield from class_definitions(block)


def names_in_order(node: ast.AST) -> list[str]:
    """Simple names and `self.attr` in an expression, in source order; not those read only for
    their metadata (`pupil.shape[-1] * coeff`: a number comes of `pupil`, no values)."""
    found: list[tuple[int, int, str]] = []
    nodes = walk(node)
    metadata = {
        id(sub.value)
        for sub in nodes
        if isinstance(sub, ast.Attribute) and sub.attr in ("shape", "ndim", "device", "size")
    }
    for sub in nodes:
        if id(sub) in metadata:
            continue
        if isinstance(sub, ast.Name) and sub.id != "self":
            found.append((sub.lineno, sub.col_offset, sub.id))
        elif is_self_attribute(sub):
            found.append((sub.lineno, sub.col_offset, f"self.{sub.attr}"))  # type: ignore[attr-defined]
    found.sort()
    return [name for _, _, name in found]


def none_facts(test: ast.expr) -> tuple[dict[str, bool], dict[str, bool]]:
    """What a condition says of names being `None`: (facts in the body, facts in the else).

    A fact maps a name to True (`None` there) or False (not `None` there): `x is None`,
    `x is not None`, `not x`, a bare `x`, and `and` / `or` chains of those.
    """
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name):
        right = test.comparators[0]
        if isinstance(right, ast.Constant) and right.value is None:
            name = test.left.id
            if isinstance(test.ops[0], ast.Is):
                return {name: True}, {name: False}
            if isinstance(test.ops[0], ast.IsNot):
                return {name: False}, {}
    if isinstance(test, ast.Name):
        return {test.id: False}, {}  # truthy: not None (falsy may be None or an empty value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        body, orelse = none_facts(test.operand)
        return orelse, body
    if isinstance(test, ast.BoolOp):
        parts = [none_facts(value) for value in test.values]
        if isinstance(test.op, ast.And):  # all hold in the body
            return {k: v for body, _ in parts for k, v in body.items()}, {}
        return {}, {k: v for _, orelse in parts for k, v in orelse.items()}
    return {}, {}


def float_facts(test: ast.expr) -> tuple[dict[str, bool], dict[str, bool]]:
    """What a condition says of names holding floating tensors: `torch.is_floating_point(x)`,
    `x.is_floating_point()`, `not` of those (rgcn: an int64 `arange` of node ids on one branch,
    float features on the other). (facts in the body, facts in the else)"""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        body, orelse = float_facts(test.operand)
        return orelse, body
    if isinstance(test, ast.Call) and last_name(test.func) == "is_floating_point":
        func = test.func
        if test.args and isinstance(test.args[0], ast.Name):
            name = test.args[0].id  # torch.is_floating_point(x)
        elif not test.args and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            name = func.value.id  # x.is_floating_point()
        else:
            return {}, {}
        return {name: True}, {name: False}
    return {}, {}


def block_exits(block: Sequence[ast.stmt]) -> bool:
    """The block always leaves (return, raise, continue, break) before its end."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    if isinstance(last, ast.If):
        return block_exits(last.body) and block_exits(last.orelse)
    return False


def one_dim_call(call: ast.Call, factory: str) -> bool:
    """A factory call whose result is 1-D (`linspace`, `arange`, `zeros(n)`, `tensor([..])`)."""
    if factory in ("linspace", "logspace", "arange"):
        return True
    if factory in ("tensor", "as_tensor"):
        data = call.args[0] if call.args else None
        return isinstance(data, (ast.List, ast.Tuple)) and not any(
            isinstance(e, (ast.List, ast.Tuple)) for e in data.elts
        )
    if factory in ("zeros", "ones", "empty", "rand", "randn", "full"):
        sizes = call.args[:1] if factory == "full" else call.args
        if len(sizes) != 1:
            return False
        size = sizes[0]
        if isinstance(size, (ast.List, ast.Tuple)):
            return len(size.elts) == 1 and not isinstance(size.elts[0], ast.Starred)
        # A number, `x.shape[0]`, `len(x)`, `n * k`; a bare name may hold a whole shape.
        return isinstance(size, (ast.Constant, ast.Subscript, ast.BinOp, ast.Call))
    return False


def is_int_constant(node: ast.AST) -> bool:
    """`3`, `-1`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int)
        and not isinstance(node.value, bool)
    )


#: What keeps a 0-dim tensor 0-dim: casts and elementwise functions of one tensor.
_SCALAR_KEEPING_METHODS = frozenset({"float", "double", "half", "to", "sqrt", "log", "exp"})
_SCALAR_KEEPING_FUNCS = frozenset({"sqrt", "rsqrt", "log", "exp", "abs"})


def is_zero_dim_factory(node: ast.AST, qualify: Callable[[ast.AST], str | None]) -> bool:
    """`torch.tensor(0.5)`, `torch.tensor(scale)`, `torch.zeros(())`: a 0-dim tensor (type
    promotion treats it like a Python number)."""
    if not isinstance(node, ast.Call):
        return False
    qualname = qualify(node.func) or ""
    short = qualname.rsplit(".", 1)[-1]
    method = node.func.attr if isinstance(node.func, ast.Attribute) and not qualname else ""
    if method in _SCALAR_KEEPING_METHODS:
        return is_zero_dim_factory(node.func.value, qualify)  # type: ignore[attr-defined]
    if not qualname.startswith("torch.") or not node.args:
        return False
    data = node.args[0]
    if short in _SCALAR_KEEPING_FUNCS:  # `torch.sqrt(torch.tensor(attn_dim).float())`
        return is_zero_dim_factory(data, qualify)
    if short in ("tensor", "as_tensor", "scalar_tensor"):
        if isinstance(data, ast.UnaryOp):
            data = data.operand
        if isinstance(data, ast.Name):  # `torch.tensor(attn_dim)`: a size is one number
            words = data.id.lower().split("_")
            return words[-1] in ("dim", "size") or (words[0] in ("num", "n") and len(words) > 1)
        return isinstance(data, ast.Constant) and isinstance(data.value, (int, float))
    if short in ("zeros", "ones", "empty", "full", "rand", "randn"):
        return isinstance(data, (ast.Tuple, ast.List)) and not data.elts
    return False


def last_name(node: ast.AST) -> str:
    """`f` for `f` and `a.b.f`; "" for anything else (the name a call or argument goes by)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def einsum_contracts(call: ast.Call) -> bool:
    """Whether an `einsum` sums over an index (`ij,jk->ik`). A pure broadcast product
    (`bdl,dn->bdln`) promotes mixed dtypes instead of raising; an equation that is not a
    string literal counts as contracting."""
    equation = constant_string(call.args[0]) if call.args else None
    if equation is None:
        return True
    equation = equation.replace(" ", "").replace("...", "")
    inputs, arrow, output = equation.partition("->")
    letters = [c for c in inputs if c.isalpha()]
    if not arrow:  # implicit output: the indices that appear once
        output = "".join(c for c in set(letters) if letters.count(c) == 1)
    return any(c not in output for c in letters)


def einsum_matrix_operands(call: ast.Call) -> list[ast.AST]:
    """The operands of `torch.einsum(equation, *operands)` indexed as matrices (two indices or
    more): `...d,...k,...kl->...dl` makes the first two vectors, never rotations. Every operand
    when the equation is not a string literal."""
    operands = list(call.args[1:])
    equation = constant_string(call.args[0]) if call.args else None
    if equation is None:
        return operands
    subscripts = equation.partition("->")[0].split(",")
    if len(subscripts) != len(operands):
        return operands
    return [
        operand
        for operand, subscript in zip(operands, subscripts)
        if sum(c.isalpha() for c in subscript) >= 2
    ]


def zero_element_shape(node: ast.AST) -> bool:
    """`torch.empty((0, 3))`, `torch.zeros(0)`: a literal 0 in the size, a placeholder with no
    values (the zero-sample branch of a renderer)."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    sizes = node.args[0].elts if isinstance(node.args[0], (ast.Tuple, ast.List)) else node.args
    return any(isinstance(s, ast.Constant) and s.value == 0 for s in sizes)


_AST = ast.AST
#: Fields that never lead to a node the analysis looks at: names and numbers, and the operator and
#: context singletons (`ast.Load`, `ast.Add`: read through their parent, as `node.op`).
_LEAF_FIELDS = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "name", "module", "level", "kind"}
    | {"type_comment", "conversion", "is_async"}
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(kind: type) -> tuple[str, ...]:
    """A node type's fields that may hold child nodes, looked up once per type."""
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(
            name
            for name in kind._fields  # type: ignore[attr-defined]
            if name not in _LEAF_FIELDS and not (kind is ast.Constant and name == "value")
        )
    return fields


def walk(node: ast.AST) -> list[ast.AST]:
    """Every node under `node`, itself first, in `ast.walk`'s order, as a list, without the
    operator and context singletons (`ast.Load`, `ast.Add`): about three times as fast as
    `ast.walk`, whose generators dominated the cost of a file's analysis. Each node type's child
    fields are looked up once."""
    found = [node]
    append = found.append
    fields_of = _CHILD_FIELDS.get
    index = 0
    while index < len(found):
        current = found[index]
        index += 1
        kind = type(current)
        fields = fields_of(kind)  # the lookup inlined: this loop is the analysis' hottest
        if fields is None:
            fields = _child_fields(kind)
        for name in fields:
            child = getattr(current, name, None)
            if type(child) is list:
                for item in child:
                    if isinstance(item, _AST):
                        append(item)
            elif isinstance(child, _AST):
                append(child)
    return found


def arithmetic_spine(node: ast.AST) -> set[int]:
    """Ids of the arithmetic operations whose result is `node`'s value (`(1 - m) * e`: both
    operations), through operators only: a call's arguments are not its value."""
    spine: set[int] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.BinOp):
            spine.add(id(current))
            stack += (current.left, current.right)
        elif isinstance(current, ast.UnaryOp):
            stack.append(current.operand)
    return spine


def float_constant(node: ast.AST) -> bool:
    """`-100.0`, `float("-inf")`, `-math.inf`, `torch.finfo(x.dtype).min`: a float fill value."""
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    if isinstance(node, ast.Constant):
        return isinstance(node.value, float)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "float"
    return isinstance(node, ast.Attribute) and node.attr in ("inf", "min", "max")


def class_default(init: ast.FunctionDef | ast.AsyncFunctionDef | None, func: ast.expr) -> ast.expr:
    """The class an `__init__` parameter defaults to (`window_msa=WindowMSA`), when `func` names
    that parameter; else `func` itself."""
    if init is None or not isinstance(func, ast.Name):
        return func
    default = defaults_by_param(init).get(func.id)
    return default if isinstance(default, (ast.Name, ast.Attribute)) else func


_BRANCHING = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.Match)


def conditional_self_attrs(init: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Attributes `__init__` defines under a condition or a loop (`if w_avg_beta is not None:
    self.register_buffer("w_avg", ...)`): they may not exist, or be None, so they are never a
    dtype source."""
    found: set[str] = set()
    stack: list[tuple[ast.AST, bool]] = [(stmt, False) for stmt in init.body]
    while stack:
        node, nested = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if nested and isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found.update(t.attr for t in targets if is_self_attribute(t))  # type: ignore[attr-defined]
        if (
            nested
            and isinstance(node, ast.Call)
            and last_name(node.func) in ("register_buffer", "register_parameter")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
        inner = nested or isinstance(node, _BRANCHING)
        stack.extend((child, inner) for child in _children(node))
    return found - (_defined_on_every_path(init.body) or set())


def _children(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.iter_child_nodes` without the operator and context singletons (see `walk`)."""
    for name in _child_fields(type(node)):
        child = getattr(node, name, None)
        if type(child) is list:
            yield from (item for item in child if isinstance(item, _AST))
        elif isinstance(child, _AST):
            yield child


def _defined_on_every_path(body: Sequence[ast.stmt]) -> set[str] | None:
    """Attributes every path through `body` defines; None when every path raises. An
    `if/elif/else` chain defining `self.k0` in each branch, or raising, defines it (BasicSR's
    `SeqConv3x3`, one branch a kind of convolution)."""
    defined: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.Raise):
            return None
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:  # `self.k0 = ...`, `self.k0, self.b0 = ...`
                elements = target.elts if isinstance(target, ast.Tuple) else [target]
                defined.update(e.attr for e in elements if is_self_attribute(e))  # type: ignore[attr-defined]
        elif isinstance(stmt, ast.If):
            branches = [_defined_on_every_path(stmt.body), _defined_on_every_path(stmt.orelse)]
            taken = [names for names in branches if names is not None]
            if not taken:
                return None
            defined |= set.intersection(*taken)
    return defined


def is_empty_tensor_call(value: ast.AST | None) -> bool:
    """`torch.empty(0)`, `torch.zeros((0,))`, `torch.tensor([])`, `torch.Tensor()`: a tensor with
    no elements, a placeholder replaced before its values are read."""
    if not isinstance(value, ast.Call) or (value.keywords and not value.args):
        return False
    name = last_name(value.func)
    args = value.args
    if name == "Tensor" and not args:
        return True
    if len(args) != 1:
        return False
    arg = args[0]
    if isinstance(arg, (ast.List, ast.Tuple)):
        if name in ("tensor", "Tensor", "as_tensor"):
            return not arg.elts
        return len(arg.elts) == 1 and _int_zero(arg.elts[0])
    return name in ("empty", "zeros", "ones", "rand", "randn") and _int_zero(arg)


def _int_zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


def raises_not_implemented(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """An abstract method: its body (a docstring aside) only raises NotImplementedError."""
    body = [s for s in function.body if not isinstance(s, ast.Expr)]  # docstrings
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    error = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(error, ast.Name) and error.id == "NotImplementedError"


def attribute_pairs(
    node: ast.Assign, defaults: Mapping[str, ast.expr] | None = None
) -> list[tuple[ast.Attribute, ast.expr]]:
    """`self.x = v` and `self.fx, self.fy = fx, fy`: each attribute with its value; with the
    method's parameter `defaults`, `self.vx, self.vy, self.vz = voxel_size` unpacks the
    default (`voxel_size=(0.2, 0.2, 4.0)`: PointPillars' voxel sizes, Python floats)."""
    pairs: list[tuple[ast.Attribute, ast.expr]] = []
    for target in node.targets:
        value = node.value
        if isinstance(value, ast.Name) and isinstance(target, ast.Tuple) and defaults:
            default = defaults.get(value.id)
            value = default if isinstance(default, (ast.Tuple, ast.List)) else value
        if is_self_attribute(target):
            pairs.append((target, node.value))  # type: ignore[arg-type]
        elif (
            isinstance(target, ast.Tuple)
            and isinstance(value, (ast.Tuple, ast.List))
            and len(target.elts) == len(value.elts)
        ):
            pairs += [
                (element, item)  # type: ignore[misc]
                for element, item in zip(target.elts, value.elts)
                if is_self_attribute(element)
            ]
        elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.GeneratorExp):
            # `self.vx, self.vy = (float(v) for v in size)`: each gets an element of it
            pairs += [(e, node.value) for e in target.elts if is_self_attribute(e)]  # type: ignore[misc]
    return pairs


def bound_arguments(
    node: ast.Call, params: Sequence[str], args: list[tuple[ast.expr, T]]
) -> dict[str, tuple[ast.expr, T]]:
    """Each parameter a call's arguments bind (`args`: the call's positional then keyword
    arguments, each with what it evaluated to); none where a `*args` hides the positions."""
    if any(isinstance(arg, ast.Starred) for arg in node.args):
        return {}
    bound = dict(zip(params, args[: len(node.args)]))
    keywords = zip(node.keywords, args[len(node.args) :])
    return bound | {keyword.arg: arg for keyword, arg in keywords if keyword.arg}


def is_main_guard(stmt: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either side)."""
    if not (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare)):
        return False
    test = stmt.test
    sides = [test.left, *test.comparators]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    mains = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(sides) == 2 and isinstance(test.ops[0], ast.Eq) and bool(names) and bool(mains)


def kept_in_fp32(tree: ast.Module) -> tuple[str, ...]:
    """The names in a class's `_keep_in_fp32_modules = [...]` (transformers' and diffusers'
    convention): submodules whose qualified name contains one stay float32 when the model is
    loaded in bf16, and their inputs are cast to float32 on purpose."""
    names: list[str] = []
    for cls in (stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)):
        for stmt in cls.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) else None
            if isinstance(target, ast.Name) and target.id == "_keep_in_fp32_modules":
                elts = getattr(stmt.value, "elts", [])  # type: ignore[union-attr]
                names += [e.value for e in elts if isinstance(e, ast.Constant) and e.value]
    return tuple(n for n in names if isinstance(n, str))


def params_of(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names of a function's parameters (`*args` and `**kwargs` aside)."""
    args = func.args
    return {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}


def defaults_by_param(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, ast.expr]:
    """Each parameter's default expression, positional and keyword-only ones."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    result: dict[str, ast.expr] = {}
    for param, default in zip(positional[len(positional) - len(args.defaults) :], args.defaults):
        result[param.arg] = default
    for param, default in zip(args.kwonlyargs, args.kw_defaults):
        if default is not None:
            result[param.arg] = default
    return result


_SEQUENCE_NODES = (ast.List, ast.Tuple, ast.ListComp, ast.Dict, ast.DictComp)


def builds_sequence(node: ast.AST) -> bool:
    """`[a, b]`, `{k: v}`, `[torch.zeros(1)] * n`: a list, tuple or dict, not a tensor."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Add)):
        return isinstance(node.left, _SEQUENCE_NODES) or isinstance(node.right, _SEQUENCE_NODES)
    return isinstance(node, _SEQUENCE_NODES)
