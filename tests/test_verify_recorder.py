"""The mixed-dtype recorder (shared by verify and trace), in process: what is a site, inside and
outside autocast, and where it is attributed."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import torch.nn.functional as F  # noqa: E402

from dtypelint.verify.autocast import aten_name, dtypes_after_autocast, policy  # noqa: E402
from dtypelint.verify.recorder import FrameFilter, MixedDtypeRecorder  # noqa: E402

HERE = Path(__file__).resolve().parent
BF16, F32 = torch.bfloat16, torch.float32


def sites(fn: Callable[[], Any]) -> dict[str, dict[str, Any]]:
    """op -> record of the sites `fn` produces (errors swallowed: a raise is a site too)."""
    recorder = MixedDtypeRecorder(FrameFilter(HERE))
    with recorder, contextlib.suppress(RuntimeError):
        fn()
    return {record["op"]: record for record in recorder.records.values()}


def _line(fn: Callable[..., Any], offset: int) -> int:
    return fn.__code__.co_firstlineno + offset


def autocast_matmul(points: torch.Tensor, intrinsics: torch.Tensor) -> torch.Tensor:
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return points @ intrinsics.transpose(-1, -2)


def test_matmul_autocast_casts_is_not_a_site() -> None:
    points, intrinsics = torch.rand(2, 5, 3, dtype=BF16), torch.rand(3, 3)
    assert sites(lambda: autocast_matmul(points, intrinsics)) == {}
    # The same call outside autocast raises, and is a site.
    outside = sites(lambda: points @ intrinsics)
    assert outside["torch.Tensor.matmul"]["raised"] is True


def autocast_promotions(x: torch.Tensor, buffer: torch.Tensor) -> None:
    with torch.autocast("cpu", dtype=torch.bfloat16):
        torch.cat([x, buffer], dim=-1)  # cat is a "promote" op on CPU: widened to float32
        x + buffer  # elementwise promotion: autocast leaves it alone


def test_promotion_inside_autocast_is_a_site() -> None:
    found = sites(lambda: autocast_promotions(torch.ones(4, 2, dtype=BF16), torch.zeros(4, 2)))
    assert set(found) == {"torch.cat", "torch.Tensor.add"}
    cat = found["torch.cat"]
    assert (cat["dtypes"], cat["result"], cat["autocast"]) == (
        ["bfloat16", "float32"],
        "float32",
        "bfloat16",
    )
    assert cat["frame"]["file"] == "test_verify_recorder.py"
    assert cat["frame"]["line"] == _line(autocast_promotions, 2)
    assert found["torch.Tensor.add"]["frame"]["line"] == _line(autocast_promotions, 3)


def autocast_other_policies(x: torch.Tensor, target: torch.Tensor) -> None:
    with torch.autocast("cpu", dtype=torch.bfloat16):
        F.mse_loss(x, target)  # "fp32" op on CPU: both operands cast to float32
        F.linear(x, target)  # "lower precision": both cast to bf16
        x @ target.double().T  # float64 is never cast by autocast: still raises


def test_fp32_and_float64_policies() -> None:
    found = sites(lambda: autocast_other_policies(torch.ones(3, 3, dtype=BF16), torch.ones(3, 3)))
    assert set(found) == {"torch.Tensor.matmul"}
    assert found["torch.Tensor.matmul"]["dtypes"] == ["bfloat16", "float64"]
    assert found["torch.Tensor.matmul"]["raised"] is True


def test_norm_kernels_with_float32_parameters_are_not_sites() -> None:
    x = torch.randn(4, 8, dtype=BF16)
    norm = torch.nn.LayerNorm(8)  # float32 weight and bias, by design in mixed precision
    batch = torch.nn.BatchNorm1d(8).eval()
    assert sites(lambda: (norm(x), batch(x))) == {}


def writes(x: torch.Tensor, buffer: torch.Tensor) -> None:
    buffer[0] = x[0]  # bf16 row into a float32 buffer: the buffer stays float32
    x.add_(buffer)  # in-place across dtypes


def test_writes_across_dtypes_are_sites() -> None:
    found = sites(lambda: writes(torch.ones(2, 3, dtype=BF16), torch.zeros(2, 3)))
    assert found["torch.Tensor.__setitem__"]["result"] == "float32"
    assert found["torch.Tensor.__setitem__"]["frame"]["line"] == _line(writes, 1)
    assert found["torch.Tensor.add_"]["result"] == "bfloat16"


def test_autocast_tables() -> None:
    assert aten_name("torch.Tensor.__matmul__") == "matmul"
    assert aten_name("torch.Tensor.__rmatmul__") == "matmul"
    assert aten_name("torch.nn.functional.grid_sample") == "grid_sampler"
    assert aten_name("torch.linalg.inv") == "linalg_inv"
    assert policy("cpu", "torch.Tensor.matmul") == "lower_precision_fp"
    assert policy("cpu", "torch.cat") is None  # promote: the widening the recorder reports
    assert policy("cpu", "torch.nn.functional.grid_sample") == "fp32"
    assert policy("cpu", "torch.einsum") is None  # not registered for CPU autocast
    assert policy("cuda", "torch.einsum") == "lower_precision_fp"
    assert policy("cuda", "torch.nn.functional.layer_norm") == "fp32"
    cast = dtypes_after_autocast("cuda", "torch.matmul", ["float16", "float32"], "float16")
    assert cast == ["float16"]
    assert dtypes_after_autocast("cpu", "torch.add", ["bfloat16", "float32"], "bfloat16") is None
