"""The shared analysis model: the questions rules ask it, answered directly."""

from __future__ import annotations

import ast
import textwrap

import pytest

from dtypelint.analysis import DEFAULT_CAMERA_NAMES, CameraNames, ModuleAnalysis
from dtypelint.source import SourceText


def analyze(code: str) -> ModuleAnalysis:
    code = textwrap.dedent(code)
    return ModuleAnalysis(ast.parse(code), SourceText(code), "m.py")


def test_import_aliases_resolve_to_canonical_names() -> None:
    module = analyze("""
        import torch as th
        import torch.nn.functional as F
        from torch import zeros as z
        from torch.nn import functional
        import numpy as np
    """)
    qualify = lambda expr: module.qualify(ast.parse(expr, mode="eval").body)  # noqa: E731
    assert qualify("th.zeros") == "torch.zeros"
    assert qualify("F.linear") == "torch.nn.functional.linear"
    assert qualify("functional.linear") == "torch.nn.functional.linear"
    assert qualify("z") == "torch.zeros"
    assert qualify("np.load") == "numpy.load"
    assert qualify("unknown.zeros") is None


def test_module_level_assignment_shadows_an_import() -> None:
    module = analyze("""
        from torch import zeros
        zeros = lambda *a: None
    """)
    assert module.qualify(ast.parse("zeros", mode="eval").body) is None


def test_parameter_shadows_an_import_inside_its_function() -> None:
    module = analyze("""
        import torch
        from torch import ones

        def f(x: torch.Tensor, ones):
            return x + ones(3)
    """)
    assert module.factory_calls == []


def test_tensor_taking_functions() -> None:
    module = analyze("""
        import torch
        from torch import nn
        from typing import Optional

        def annotated(a: Optional[torch.Tensor], n: int): ...
        def used(a, b):
            return a.shape, b
        def plain(a, b):
            return a + b
        class M(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.fc = nn.Linear(dim, dim)
            def forward(self, x, mask=None, scale: float = 1.0, flag=False):
                return self.fc(x) * mask
        class N(nn.Module):
            def forward(self, x, device, crop, cfg: "Config", state: dict):
                x0, y0, x1, y1 = crop
                return x
    """)
    info = {f.qualname: f for f in module.functions}
    assert info["annotated"].tensor_params == ["a"]
    assert info["used"].tensor_params == ["a"]
    assert not info["plain"].is_tensor_taking
    # Given to a submodule: a tensor on evidence; `mask` holds a mask, not activations.
    assert info["M.forward"].tensor_params == ["x"]
    assert info["M.forward"].is_forward
    assert not info["M.__init__"].is_tensor_taking
    # No evidence (only returned), a device, a tuple, a config object, a dict: none a tensor.
    assert info["N.forward"].tensor_params == []


def test_camera_parameters_are_not_activations() -> None:
    module = analyze("""
        import torch
        def f(points: torch.Tensor, intrinsics: torch.Tensor, Q, K, V):
            return points @ intrinsics
    """)
    (info,) = module.functions
    assert info.tensor_params == ["points"]
    assert info.camera_params == ["intrinsics"]
    assert [module.text(op.operand) for op in module.matmul_operands] == ["intrinsics"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("intrinsics", True),
        ("K", True),
        ("K_inv", True),
        ("intrinsics_src", True),
        ("src_intrinsics", True),
        ("pose_b", True),
        ("proj_mat", True),
        ("K_np", True),
        ("K_q", False),
        ("cam2world_ref", True),
        ("k", False),  # case-sensitive
        ("Kernel", False),
        ("proj_weight", False),
        ("q_proj", False),
        ("down_proj", False),
        ("pose_feat", False),
        ("P_tokens", False),
    ],
)
def test_camera_name_matching(name: str, expected: bool) -> None:
    assert CameraNames(DEFAULT_CAMERA_NAMES).matches(name) is expected


def test_factory_meets_are_recorded_in_statement_order_across_blocks() -> None:
    module = analyze("""
        import torch
        def f(x: torch.Tensor, flag: bool):
            acc = torch.zeros(3, device=x.device)
            if flag:
                acc = acc * 2
            for row in x:
                acc = acc + row
            return acc
    """)
    (record,) = module.factory_calls
    assert [meet.kind for meet in record.meets] == ["arith"]
    assert record.meets[0].act_names == ("row",)
    assert record.device_source == "x"
    assert "row" not in record.bound_act_names


def test_integer_factories_meet_only_in_strict_operations() -> None:
    module = analyze("""
        import torch
        def f(x: torch.Tensor):
            i = torch.arange(4)
            y = x * i
            return x @ torch.arange(4)
    """)
    first, second = module.factory_calls
    assert first.integer and first.meets == []
    assert second.integer and [m.kind for m in second.meets] == ["matmul"]


def test_autocast_regions_are_marked() -> None:
    module = analyze("""
        import torch
        def f(x: torch.Tensor, K: torch.Tensor):
            a = x @ K
            with torch.autocast("cuda"):
                b = x @ K
            with torch.autocast("cuda", enabled=False):
                c = x @ K
            return a, b, c
    """)
    flags = [(op.autocast, op.fixed_precision) for op in module.matmul_operands]
    assert flags == [(False, False), (True, False), (False, True)]


def test_casts_end_camera_provenance() -> None:
    module = analyze("""
        import torch
        def f(x: torch.Tensor, K: torch.Tensor, device):
            a = K.to(device)            # a move: still a camera
            b = K.to(x.dtype)           # a cast to the activations' dtype
            c = K.float()               # a fixed cast
            return x @ a, x @ b, x @ c
    """)
    kinds = [(module.text(op.operand), op.value.is_camera) for op in module.matmul_operands]
    assert kinds == [("a", True), ("c", False)]
    assert [cast.dtype for cast in module.fixed_casts] == ["float32"]


def test_positions_are_character_columns() -> None:
    code = 'import torch\ndef f(x: torch.Tensor):\n    s = "é"; return x + torch.zeros(3)\n'
    module = ModuleAnalysis(ast.parse(code), SourceText(code), "m.py")
    (record,) = module.factory_calls
    assert module.source.start(record.node).column == 25  # 26 in utf-8 bytes
