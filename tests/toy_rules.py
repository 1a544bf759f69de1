"""Small test-only rules, so engine/fixer/CLI tests do not depend on the real rules' analysis.

They use the real codes and names (DTL001, DTL002) so `--select`/config validation accepts them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypelint.diagnostics import Diagnostic, Edit
from dtypelint.rules.base import Rule, make_fix


class ZerosWithoutDtype(Rule):
    """Flags `<anything>.zeros(...)` without `dtype=`; safe fix appends `dtype=x.dtype`."""

    code = "DTL001"
    name = "factory-without-dtype"
    summary = "toy: zeros without dtype"

    def check(self, module) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        source = module.source
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "zeros"
                and not any(keyword.arg == "dtype" for keyword in node.keywords)
            ):
                end = source.end(node)
                before_paren = type(end)(end.row, end.column - 1)
                content = ", dtype=x.dtype" if node.args or node.keywords else "dtype=x.dtype"
                fix = make_fix(
                    "Add `dtype=x.dtype`", [Edit(content, before_paren, before_paren)], safe=True
                )
                yield self.diagnostic(module, node, "`zeros` called without `dtype=`", fix)


class CameraMatmul(Rule):
    """Flags the name `K` as an operand of `@`; unsafe fix appends `.to(x.dtype)`."""

    code = "DTL002"
    name = "camera-matmul-uncast"
    summary = "toy: K @ x"

    def check(self, module) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        source = module.source
        for node in ast.walk(module.tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
                for operand in (node.left, node.right):
                    if isinstance(operand, ast.Name) and operand.id == "K":
                        end = source.end(operand)
                        fix = make_fix(
                            "Cast `K` with `.to(x.dtype)`",
                            [Edit(".to(x.dtype)", end, end)],
                            safe=False,
                        )
                        yield self.diagnostic(
                            module, operand, "camera value `K` meets an activation", fix
                        )


class NoFixRule(Rule):
    """Flags every `print` call, without a fix."""

    code = "DTL002"
    name = "camera-matmul-uncast"
    summary = "toy: print"

    def check(self, module) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "print"
            ):
                yield self.diagnostic(module, node, "print call")


class BreakingFix(Rule):
    """Flags `bad()` calls with a fix whose result does not parse."""

    code = "DTL001"
    name = "factory-without-dtype"
    summary = "toy: broken fix"

    def check(self, module) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        source = module.source
        for node in ast.walk(module.tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "bad"
            ):
                start = source.start(node)
                fix = make_fix("Break it", [Edit("(", start, start)], safe=True)
                yield self.diagnostic(module, node, "bad call", fix)


class Crashes(Rule):
    code = "DTL002"
    name = "camera-matmul-uncast"
    summary = "toy: crashes"

    def check(self, module) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        raise ValueError("boom")


TOY_RULES = (ZerosWithoutDtype, CameraMatmul)
