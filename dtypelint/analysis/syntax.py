"""Small helpers over Python `ast` nodes shared by the analysis."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence


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


def canonical(qualname: str) -> str:
    """Spellings of the same torch object mapped to one name."""
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


def is_plain_chain(value: ast.AST, name: str) -> bool:
    """`name`, `name.view(...)`, `name[None]`, `name.T`: the same tensor reshaped or moved."""
    node = value
    while True:
        if isinstance(node, ast.Name):
            return node.id == name
        if isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, ast.Subscript) and not (
            isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int)
        ):
            node = node.value
        else:
            return False


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
    """Simple names and `self.attr` in an expression, in source order."""
    found: list[tuple[int, int, str]] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id != "self":
            found.append((sub.lineno, sub.col_offset, sub.id))
        elif is_self_attribute(sub):
            found.append((sub.lineno, sub.col_offset, f"self.{sub.attr}"))  # type: ignore[attr-defined]
    found.sort()
    return [name for _, _, name in found]
