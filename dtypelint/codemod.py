"""Building fix edits. Analysis runs on `ast`; fixes are minimal text edits at ast positions.

Adding a keyword argument is rendered with libcst on the call's own text (not the whole file), so
trailing commas, comments and multi-line layouts come out right; the edit we keep is the minimal
insertion between the old and the new text of the call.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from dtypelint.diagnostics import Edit, Location
from dtypelint.source import SourceText

if TYPE_CHECKING:
    import libcst as cst

#: Expressions that can take `.to(...)` without parentheses.
_PRIMARY = (
    ast.Name,
    ast.Attribute,
    ast.Subscript,
    ast.Call,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Constant,
)


def insert_keyword(source: SourceText, call: ast.Call, name: str, value: str) -> Edit | None:
    """An edit adding `name=value` as the last argument of `call`, or None if it cannot be done."""
    start = source.offset(source.start(call))
    end_location = source.end(call)
    end = source.offset(end_location)
    old = source.text[start:end]
    new = _appended(source, call, old, end, f"{name}={value}")
    if new is not None:  # inserted right before the closing `)`, on its row: no diff to take
        before_paren = Location(end_location.row, end_location.column - 1)
        return Edit(new[len(old) - 1 : -1], before_paren, before_paren)
    import libcst as cst  # only calls laid out over lines pay for importing libcst

    try:
        expression = cst.parse_expression(old)
    except cst.ParserSyntaxError:
        return None
    if not isinstance(expression, cst.Call):
        return None
    new = cst.Module([]).code_for_node(
        expression.with_changes(args=_with_keyword(expression.args, name, value))
    )
    return _minimal_edit(source, start, old, new)


def _appended(source: SourceText, call: ast.Call, old: str, end: int, keyword: str) -> str | None:
    """libcst's rendering of `call` with `keyword` added, for the plain layouts: `f()` and a last
    argument followed right by `)` (`torch.zeros(3, device=x.device)`); None for the others
    (a trailing comma, a comment, a line break or spaces before `)`, a line break before `(`),
    which libcst renders.

    Importing libcst costs more than checking a file: most fixes are of these layouts, and a
    check that shows them need not load it (tests/test_codemod.py compares the two on every
    call of the test corpora)."""
    if not old.endswith(")"):
        return None
    # libcst parses the call's text alone: a line break before its `(` is outside any bracket.
    opening = source.offset(source.end(call.func)) - (end - len(old))
    while opening < len(old) and old[opening] in " \t":
        opening += 1
    if old[opening : opening + 1] != "(" or any(c in old[:opening] for c in "\r\n\\"):
        return None
    parts: list[ast.AST] = [*call.args, *call.keywords]
    if not parts:
        return old[:-1] + keyword + ")" if old.endswith("()") else None
    last = max(source.offset(source.end(part)) for part in parts)
    if last != end - 1:
        return None
    return old[:-1] + ", " + keyword + ")"


def _with_keyword(
    args: tuple[cst.Arg, ...] | list[cst.Arg], name: str, value: str
) -> list[cst.Arg]:
    import libcst as cst

    new_arg = cst.Arg(
        value=cst.parse_expression(value),
        keyword=cst.Name(name),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )
    args = list(args)
    if not args:
        return [new_arg]
    last = args[-1]
    if isinstance(last.comma, cst.Comma):
        # A trailing comma: keep the layout (one argument per line stays so).
        separator = (
            args[-2].comma if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) else None
        )
        if separator is None:
            separator = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        return [
            *args[:-1],
            last.with_changes(comma=separator),
            new_arg.with_changes(comma=last.comma),
        ]
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    # What followed the last argument (a line break before `)`) follows the new one: `device=d,
    # dtype=x.dtype` on one row, `)` where it was; not `device=d, ` and `dtype=x.dtype)` below.
    return [
        *args[:-1],
        last.with_changes(comma=comma, whitespace_after_arg=cst.SimpleWhitespace("")),
        new_arg.with_changes(whitespace_after_arg=last.whitespace_after_arg),
    ]


def _minimal_edit(source: SourceText, start: int, old: str, new: str) -> Edit:
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    content = new[prefix : len(new) - suffix]
    return Edit(
        content,
        source.location_at(start + prefix),
        source.location_at(start + len(old) - suffix),
    )


def append_to(source: SourceText, node: ast.expr, suffix: str, grouped: bool = False) -> list[Edit]:
    """Edits turning `node` into `node<suffix>`, parenthesizing it where precedence needs it.

    `grouped`: the caller knows that parentheses right around `node` are grouping ones (an
    operand of `@`), so the suffix may follow them.
    """
    end = source.end(node)
    if isinstance(node, _PRIMARY) and not _is_negative_constant(node):
        return [Edit(suffix, end, end)]
    start = source.start(node)
    if grouped:
        before, after = source.offset(start) - 1, source.offset(end)
        if before >= 0 and source.text[before] == "(" and source.text[after : after + 1] == ")":
            closing = source.location_at(after + 1)
            return [Edit(suffix, closing, closing)]
    return [Edit("(", start, start), Edit(")" + suffix, end, end)]


def _is_negative_constant(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and node.value < 0
    )
