"""Which torch.nn layer a submodule's input reaches first, as `__init__` builds the submodule:
the head of an `nn.Sequential` (past weightless layers, into nested containers), an element of
an `nn.ModuleList`, or the layer itself. The layer-input check (`MeetingRecorder`) asks, for
`self.fc(x)`, `self.layers[0](x)` and `for layer in self.layers: x = layer(x)`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from dtypelint.analysis.syntax import dotted_name, walk
from dtypelint.analysis.vocabulary import WEIGHTLESS_MODULES

Qualify = Callable[[ast.expr], "str | None"]


@dataclass(frozen=True)
class LayerHead:
    """The first layer a container's input meets."""

    qualname: str  # `torch.nn.Linear`, or a class of the file's
    index: str  # the subscripts from the container to it: "[0]", "[1][0]", "" for the layer
    #: the subscripts name that layer on every path (a Sequential's argument, an element of a
    #: literal list, a comprehension over `zip([d] + dims, ...)`), so a fix may read its weight
    certain: bool = True


@dataclass(frozen=True)
class Listed:
    """The first elements of a list `__init__` builds; the first `exact` of them are there on
    every path (the others are added by a loop, which may not run)."""

    elts: list[ast.expr]
    exact: int


def assigned_in_init(
    init: ast.FunctionDef | ast.AsyncFunctionDef | None, path: str
) -> ast.expr | None:
    """The value `__init__` assigns to `self.<path>` (`path` dotted: `temb.dense`), the first
    such assignment; None if it assigns none."""
    target = f"self.{path}"
    for node in walk(init) if init is not None else ():
        if isinstance(node, ast.Assign) and any(dotted_name(t) == target for t in node.targets):
            return node.value
    return None


def first_layer(
    value: ast.expr | None,
    qualify: Qualify,
    element: int = 0,
    init: ast.FunctionDef | ast.AsyncFunctionDef | None = None,
    path: str = "",
) -> LayerHead | None:
    """The layer `value`'s input meets first; for a ModuleList, its element `element` (the
    input of `self.layers[element](x)`); None where the code does not say. `init` and `path`
    (`self.<path> = value` in `__init__`) let lists built there count: `layers = [...];
    layers.append(...); nn.Sequential(*layers)`, `self.net = nn.ModuleList([]);
    self.net.append(...)`."""
    if not isinstance(value, ast.Call):
        return None
    qualname = qualify(value.func) or ""
    kind = qualname.rsplit(".", 1)[-1]
    if kind in ("Sequential", "ModuleList"):
        head = _container(kind, value, qualify, element, init, path)
        if head is None or qualname.startswith("torch.nn."):
            return head
        # another package's container (x-transformers' `Sequential` drops None arguments): its
        # layers in the same order, maybe not at the same positions
        return LayerHead(head.qualname, head.index, False)
    return LayerHead(qualname, "") if qualname else None


def _container(
    kind: str,
    value: ast.Call,
    qualify: Qualify,
    element: int,
    init: ast.FunctionDef | ast.AsyncFunctionDef | None,
    path: str,
) -> LayerHead | None:
    """`first_layer` of an `nn.Sequential` or an `nn.ModuleList`."""
    if kind == "Sequential":
        for position, layer in enumerate(value.args):
            if isinstance(layer, ast.Starred):  # `nn.Sequential(*layers)`, `layers` built here
                listed = _local_list(init, layer.value)
                head = _list_element(listed, qualify, 0, init) if position == 0 else None
                return head
            inner = qualify(layer.func) or "" if isinstance(layer, ast.Call) else ""
            if _weightless(inner):
                continue
            head = first_layer(layer, qualify, init=init)
            if head is None:
                return None
            return LayerHead(head.qualname, f"[{position}]{head.index}", head.certain)
        return None
    items: ast.expr | Listed = value.args[0] if value.args else ast.List(elts=[])
    if isinstance(items, ast.List) and init is not None and path:
        items = _built_list(init, f"self.{path}", items.elts)
    return _list_element(items, qualify, element, init)


def _local_list(
    init: ast.FunctionDef | ast.AsyncFunctionDef | None, name: ast.expr
) -> Listed | None:
    """The list a local of `__init__` holds where it is given (`layers = [a]`, then appends)."""
    if init is None or not isinstance(name, ast.Name):
        return None
    for stmt in init.body:
        if (
            isinstance(stmt, ast.Assign)
            and [dotted_name(t) for t in stmt.targets] == [name.id]
            and isinstance(stmt.value, ast.List)
        ):
            return _built_list(init, name.id, stmt.value.elts)
    return None


def _built_list(
    init: ast.FunctionDef | ast.AsyncFunctionDef, target: str, initial: list[ast.expr]
) -> Listed:
    """The first elements of a list `__init__` builds: `initial`, then what the statements of
    its body that `target.append(x)` add, in order, up to the first other change (one under a
    condition may not happen); a loop whose body starts by appending adds that element where it
    runs (SuperGlue's `for i in range(1, len(channels)): blocks.append(nn.Conv1d(...))`)."""
    items = list(initial)
    for stmt in init.body:
        changes = _list_changes(stmt, target)
        if not changes:
            continue
        if isinstance(stmt, (ast.For, ast.AsyncFor)) and stmt.body:
            looped = _appended(stmt.body[0], target)
            return Listed([*items, looped] if looped is not None else items, len(items))
        appended = _appended(stmt, target)
        if appended is None:
            break
        items.append(appended)
    return Listed(items, len(items))


def _list_changes(stmt: ast.stmt, target: str) -> list[ast.Call]:
    return [
        node
        for node in walk(stmt)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and dotted_name(node.func.value) == target
        and node.func.attr in _LIST_CHANGES
    ]


def _appended(stmt: ast.stmt, target: str) -> ast.expr | None:
    """`x` of a statement `target.append(x)`, else None."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return None
    if dotted_name(call.func.value) != target or call.func.attr != "append":
        return None
    return call.args[0] if len(call.args) == 1 and not call.keywords else None


_LIST_CHANGES = frozenset({"append", "extend", "insert", "pop", "clear", "remove"})


def _weightless(qualname: str) -> bool:
    """`nn.ReLU()`, `nn.Dropout(p)`, einops' `Rearrange(...)`: passed through unchanged."""
    kind = qualname.rsplit(".", 1)[-1]
    return (qualname.startswith("torch.nn.") and kind in WEIGHTLESS_MODULES) or kind in (
        "Rearrange",
        "Reduce",
    )


def _list_element(
    items: ast.expr | Listed | None,
    qualify: Qualify,
    element: int,
    init: ast.FunctionDef | ast.AsyncFunctionDef | None = None,
) -> LayerHead | None:
    """Element `element` of a ModuleList's argument: a literal list (or one `__init__` builds),
    or a comprehension's element (every element is one; it exists on every path only where the
    comprehension provably makes one)."""
    if isinstance(items, (ast.List, ast.Tuple)):
        items = Listed(items.elts, len(items.elts))
    if isinstance(items, Listed):
        if not -len(items.elts) <= element < len(items.elts):
            return None
        head = first_layer(items.elts[element], qualify, init=init)
        every_path = element < items.exact if element >= 0 else items.exact == len(items.elts)
        certain = head is not None and head.certain and every_path
        return LayerHead(head.qualname, f"[{element}]{head.index}", certain) if head else None
    if isinstance(items, (ast.ListComp, ast.GeneratorExp)):
        head = first_layer(items.elt, qualify, init=init)
        if head is None:
            return None
        certain = head.certain and element == 0 and _never_empty(items.generators)
        return LayerHead(head.qualname, f"[{element}]{head.index}", certain)
    return None


def _never_empty(generators: list[ast.comprehension]) -> bool:
    """`for n, k in zip([input_dim] + h, h + [output_dim])` (DETR's MLP): every zipped list
    starts or ends with a literal element, so there is at least one layer."""
    if len(generators) != 1 or generators[0].ifs:
        return False
    source = generators[0].iter
    if not (isinstance(source, ast.Call) and isinstance(source.func, ast.Name)):
        return False
    if source.func.id != "zip" or not source.args:
        return False
    return all(_has_literal_item(arg) for arg in source.args)


def _has_literal_item(node: ast.expr) -> bool:
    if isinstance(node, ast.List):
        return bool(node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _has_literal_item(node.left) or _has_literal_item(node.right)
    return False
