"""The fixed-point driver: units re-walked only when a channel they read changed."""

from __future__ import annotations

import ast
import textwrap

from dtypelint.analysis import ModuleAnalysis
from dtypelint.analysis import flow as flow_module
from dtypelint.analysis.syntax import walk
from dtypelint.source import SourceText


def _analyse(code: str) -> tuple[ModuleAnalysis, list[str]]:
    """The analysis of `code`, and the names of the functions walked, in walk order."""
    code = textwrap.dedent(code)
    walked: list[str] = []
    original = flow_module.FunctionFlow.run

    def run(self: flow_module.FunctionFlow) -> None:
        walked.append(self.node.name)
        original(self)

    flow_module.FunctionFlow.run = run  # type: ignore[method-assign]
    try:
        analysis = ModuleAnalysis(ast.parse(code), SourceText(code), "model.py")
    finally:
        flow_module.FunctionFlow.run = original  # type: ignore[method-assign]
    return analysis, walked


def test_a_caller_before_its_helper_is_walked_again_and_nothing_else() -> None:
    """`forward` uses `make_grid` before it is walked: its summary (a camera value) arrives
    after, so the class is walked again; `unrelated` reads nothing that changed."""
    analysis, walked = _analyse(
        """
        import torch
        from torch import nn

        class Projector(nn.Module):
            def forward(self, points: torch.Tensor, batch: dict) -> torch.Tensor:
                K = make_k(batch)
                return points @ K.T

        def make_k(batch):
            return batch["intrinsics"]

        def unrelated(x: torch.Tensor) -> torch.Tensor:
            return x * 2
        """
    )
    assert walked.count("forward") == 2
    assert walked.count("make_k") == 1
    assert walked.count("unrelated") == 1
    assert [(m.op_name, m.other_names) for m in analysis.matmul_operands] == [("@", ("points",))]


def test_walk_lists_nodes_in_the_order_of_ast_walk_without_operators_and_contexts() -> None:
    tree = ast.parse(
        "import m as n\n"
        "def f(a: int, b=1.0, *c, **d):\n"
        "    x: float = -a\n"
        "    x += 1\n"
        "    return [a @ b for _ in range(3) if _ < 2 and not c] + g(*a, k=b)[0].h + f'{x!r}'\n"
    )
    singletons = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
    expected = [node for node in ast.walk(tree) if not isinstance(node, singletons)]
    assert walk(tree) == expected


def test_a_class_defined_inside_a_function_is_walked() -> None:
    analysis, walked = _analyse(
        """
        import torch
        from torch import nn

        def build(width: int):
            class Head(nn.Module):
                def forward(self, x: torch.Tensor) -> torch.Tensor:
                    return x + torch.zeros(width)
            return Head()
        """
    )
    assert walked == ["build", "forward"]
    assert [record.factory for record in analysis.factory_calls] == ["zeros"]
