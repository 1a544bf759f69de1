"""DTL004 numpy-float64: NumPy-made tensors (float64 by default) meeting activations."""

from __future__ import annotations

import pytest

from tests.rules.helpers import dedent, executed, findings, fixed, messages

CASES = {
    "from_numpy of np.load in a matmul (safe)": (
        """
        import numpy as np
        import torch
        def f(x: torch.Tensor, path: str):
            w = torch.from_numpy(np.load(path))
            return x @ w
        """,
        (4, 9),
        "w = torch.from_numpy(np.load(path)).to(x.dtype)",
        False,
    ),
    "torch.tensor of a numpy array keeps device=": (
        """
        import numpy as np
        import torch
        def f(x: torch.Tensor):
            offsets = torch.tensor(np.linspace(0, 1, 8), device=x.device)
            return x + offsets
        """,
        (4, 15),
        "offsets = torch.tensor(np.linspace(0, 1, 8), device=x.device, dtype=x.dtype)",
        True,
    ),
    "module attribute holding an array": (
        """
        import numpy as np
        import torch
        from torch import nn
        class Norm(nn.Module):
            def __init__(self):
                super().__init__()
                self.mean = np.array([0.485, 0.456, 0.406])
            def forward(self, img):
                return img - torch.from_numpy(self.mean).to(img.device)[:, None, None]
        """,
        (9, 22),
        "torch.from_numpy(self.mean).to(img.dtype).to(img.device)",
        True,
    ),
    "parameter annotated as an array": (
        """
        import numpy as np
        import torch
        def f(x: torch.Tensor, table: np.ndarray):
            return torch.cat([x, torch.tensor(table)], dim=0)
        """,
        (4, 26),
        "torch.tensor(table, dtype=x.dtype)",
        True,
    ),
}


@pytest.mark.parametrize(("code", "where", "after", "unsafe"), CASES.values(), ids=CASES.keys())
def test_true_positives(code: str, where: tuple[int, int], after: str, unsafe: bool) -> None:
    assert findings(code) == [("DTL004", *where)]
    assert after in fixed(code, unsafe=unsafe)
    if unsafe:
        # float64 arithmetic would become float32 arithmetic: not applied without --unsafe-fixes
        assert fixed(code) == dedent(code)


def test_message_names_the_values() -> None:
    code = CASES["from_numpy of np.load in a matmul (safe)"][0]
    assert messages(code) == [
        "torch.from_numpy(...) makes a tensor from a NumPy array (float64 by default) but meets 'x';"
        " add .to(x.dtype)"
    ]


NEGATIVES = {
    # `.numpy()` keeps the tensor's dtype (and `* 2.0` keeps float32 under NumPy 2's rules).
    "array from .numpy() then as_tensor": """
        import torch
        def f(x: torch.Tensor, y: torch.Tensor):
            arr = y.detach().cpu().numpy() * 2.0
            return x * torch.as_tensor(arr)
    """,
    # An array from another library (an accelerator runtime): its dtype is unknown, not float64.
    "array of unknown origin": """
        import torch
        def f(x: torch.Tensor, runtime):
            out = runtime.infer(x)
            return x + torch.from_numpy(out[0])
    """,
    "dtype given at creation": """
        import numpy as np
        import torch
        def f(x: torch.Tensor):
            return x + torch.tensor(np.ones(3), dtype=x.dtype)
    """,
    "cast right after from_numpy": """
        import numpy as np
        import torch
        def f(x: torch.Tensor):
            return x + torch.from_numpy(np.ones(3)).to(x)
    """,
    "never meets an activation": """
        import numpy as np
        import torch
        def f(x: torch.Tensor):
            lookup = torch.from_numpy(np.arange(10))
            return x, lookup
    """,
    "outside tensor-taking code": """
        import numpy as np
        import torch
        def load(path):
            return torch.from_numpy(np.load(path)) * 2
    """,
    "branches joined, then meeting their own slices": """
        import numpy as np
        import torch
        def convert(box, is_numpy: bool):
            if is_numpy:
                arr = torch.from_numpy(np.asarray(box)).clone()
            else:
                arr = box.clone()
            z = arr[..., 5:6]
            return torch.cat([arr[..., :5], z], dim=-1)
    """,
    "array given an explicit dtype": """
        import numpy as np
        import torch
        def f(x: torch.Tensor, pts):
            a = torch.from_numpy(np.array(pts, dtype=np.float32))
            b = torch.from_numpy(np.asarray(pts).astype(np.float32))
            return x * a * b
    """,
}


@pytest.mark.parametrize("code", NEGATIVES.values(), ids=NEGATIVES.keys())
def test_true_negatives(code: str) -> None:
    assert [f for f in findings(code) if f[0] in ("DTL001", "DTL004")] == []


def test_dtl001_stays_quiet_on_numpy_calls() -> None:
    code = CASES["torch.tensor of a numpy array keeps device="][0]
    assert [f[0] for f in findings(code)] == ["DTL004"]


def test_numpy_camera_array_is_both_uncast_and_float64() -> None:
    code = """
    import numpy as np
    import torch
    def project(points: torch.Tensor, intrinsics: np.ndarray):
        K = torch.from_numpy(intrinsics)
        return points @ K.T
    """
    assert findings(code) == [("DTL004", 4, 9), ("DTL002", 5, 21)]
    after = fixed(code)
    assert "K = torch.from_numpy(intrinsics).to(points.dtype)" in after
    assert "points @ K.to(points.dtype).T" in after


def test_a_helper_told_its_dtype_makes_that_dtype() -> None:
    """aniposelib's `to_torch(x, device=..., dtype=P.dtype)` converts arrays with NumPy but
    returns the dtype it is given: no DTL004 where the caller passes one (11 false findings)."""
    code = """
        import numpy as np
        import torch

        def to_torch(x, device=None, dtype=None):
            tensor = torch.from_numpy(np.asarray(x)).to(device)
            return tensor if dtype is None else tensor.to(dtype)

        def reprojection_error(A: torch.Tensor, p3d: torch.Tensor, p2d) -> torch.Tensor:
            p2d = to_torch(p2d, device=A.device, dtype=A.dtype)
            return p3d @ A.T - p2d

        def reprojection_any(A: torch.Tensor, p3d: torch.Tensor, p2d) -> torch.Tensor:
            return p3d @ A.T - to_torch(p2d, device=A.device)
    """
    assert [(code, row) for code, row, _ in findings(code)] == [("DTL004", 13)]


def test_a_helper_returning_a_numpy_array_gives_a_float64_tensor_at_the_call() -> None:
    """Blind set v4's anchor decoder: `make_anchor_centers` builds the centres with NumPy and
    returns the array; `torch.tensor(make_anchor_centers(...))` is float64 and promotes the
    regression. A helper returning numbers or a list is no NumPy array."""
    code = """
        import numpy as np
        import torch
        import torch.nn as nn

        def make_anchor_centers(h: int, w: int, stride: int) -> np.ndarray:
            ys, xs = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
            return np.stack([xs, ys], -1).reshape(-1, 2) * stride + stride / 2.0

        class Decoder(nn.Module):
            def __init__(self, stride: int = 8):
                super().__init__()
                self.stride = stride
                self.reg = nn.Conv2d(8, 2, 3, padding=1)

            def forward(self, feat):
                B, _, H, W = feat.shape
                ltrb = self.reg(feat).flatten(2).transpose(1, 2)
                centers = torch.tensor(make_anchor_centers(H, W, self.stride), device=feat.device)
                return centers - ltrb
    """
    assert findings(code) == [("DTL004", 18, 19)]
    listed = code.replace(".reshape(-1, 2) * stride + stride / 2.0", ".reshape(-1, 2).tolist()")
    assert findings(listed) == []


MEL_FRONT_END = """
import numpy as np
import torch
from torch import nn


def mel_filter_bank(n_freqs: int = 9, n_mels: int = 4) -> np.ndarray:
    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    centers = np.linspace(0.0, hz_to_mel(8000.0), n_mels)[:, None]
    freqs = np.linspace(0.0, hz_to_mel(8000.0), n_freqs)[None]
    return np.maximum(0.0, 1.0 - np.abs(freqs - centers) / 1000.0)


class LogMel(nn.Module):
    def __init__(self, n_mels: int = 4) -> None:
        super().__init__()
        self.mel_basis = mel_filter_bank(n_mels=n_mels)
        self.conv = nn.Conv1d(n_mels, 8, 1)

    def forward(self, magnitudes: torch.Tensor) -> torch.Tensor:
        filters = torch.from_numpy(self.mel_basis).to(magnitudes.device)
        return self.conv(filters @ magnitudes)
"""


def test_an_array_a_helper_of_the_file_returns_is_numpy_made() -> None:
    """Blind set v6's mel projector: `__init__` stores what a module-level helper returns, and
    every return of it is a NumPy array (float64); `torch.from_numpy` keeps float64 and the
    product with bf16 magnitudes raises. The helper's nested function returns are not its own."""
    assert findings(MEL_FRONT_END) == [("DTL004", 22, 19)]
    after = fixed(MEL_FRONT_END)
    assert "torch.from_numpy(self.mel_basis).to(magnitudes.dtype).to(magnitudes.device)" in after
    torch = pytest.importorskip("torch")
    given = torch.rand(2, 9, 5)
    original = executed(MEL_FRONT_END)["LogMel"]()  # type: ignore[operator]
    with pytest.raises(RuntimeError):
        original.to(torch.bfloat16)(given.bfloat16())
    torch.manual_seed(0)
    patched = executed(after)["LogMel"]()  # type: ignore[operator]
    assert patched.to(torch.bfloat16)(given.bfloat16()).dtype == torch.bfloat16


def test_an_array_init_divides_a_number_by_is_numpy() -> None:
    """Blind set v7's whitened descriptor: `self.desc_scale = 1.0 / (np.std(sample, axis=0) +
    1e-3)` is a float64 NumPy array like `np.mean(...)`, the number on the left of the division
    notwithstanding; `torch.from_numpy` of it meets the bf16 descriptor."""
    code = """
        import numpy as np
        import torch
        from torch import nn

        class Whitened(nn.Module):
            def __init__(self, sample: np.ndarray) -> None:
                super().__init__()
                self.proj = nn.Linear(4, 4)
                self.desc_scale = 1.0 / (np.std(sample, axis=0) + 1e-3)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.proj(x) * torch.from_numpy(self.desc_scale).to(x.device)
    """
    assert findings(code) == [("DTL004", 12, 31)]
    plain = code.replace("1.0 / (np.std(sample, axis=0) + 1e-3)", "2.0")
    assert findings(plain) == []
