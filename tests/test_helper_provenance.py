"""Provenance across helper functions in the same file (per-function summaries)."""

from __future__ import annotations

from tests.rules.helpers import findings, fixed, messages


def test_helper_returning_a_numpy_tensor() -> None:
    code = """
    import numpy as np
    import torch

    def load_K(path):
        return torch.from_numpy(np.loadtxt(path))

    def backproject(pix: torch.Tensor, path: str):
        K_file = load_K(path)
        return pix @ K_file
    """
    assert findings(code) == [("DTL004", 8, 14)]
    assert messages(code)[0].startswith(
        "load_K(...) returns a NumPy-derived tensor (the array's dtype, not the run's) but meets 'pix'"
    )
    assert "K_file = load_K(path).to(pix.dtype)" in fixed(code)


def test_helper_returning_a_camera_value() -> None:
    code = """
    import torch

    def get_matrix(batch):
        return batch["cam2world"][:, :3]

    def step(batch, feats: torch.Tensor):
        M = get_matrix(batch)
        return feats @ M.mT
    """
    assert findings(code) == [("DTL002", 8, 20)]
    assert "return feats @ M.to(feats.dtype).mT" in fixed(code)


def test_helper_called_with_a_camera_argument() -> None:
    code = """
    import torch

    def project(points: torch.Tensor, M: torch.Tensor) -> torch.Tensor:
        uvw = points @ M.transpose(-1, -2)
        return uvw[..., :2] / uvw[..., 2:]

    def forward(points: torch.Tensor, intrinsics: torch.Tensor):
        return project(points, intrinsics)
    """
    assert findings(code) == [("DTL002", 4, 20)]
    assert "uvw = points @ M.to(points.dtype).transpose(-1, -2)" in fixed(code)


def test_method_helper_called_with_a_camera_argument() -> None:
    code = """
    import torch
    from torch import nn

    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)

        def _apply(self, x, mat):
            return x @ mat

        def forward(self, feats, K):
            return self._apply(self.fc(feats), K)
    """
    assert findings(code) == [("DTL002", 10, 20)]


def test_helper_called_with_an_activation_is_not_a_camera() -> None:
    code = """
    import torch

    def mix(points: torch.Tensor, M: torch.Tensor):
        return points @ M

    def a(points: torch.Tensor, K: torch.Tensor):
        return mix(points, K)

    def b(points: torch.Tensor, W: torch.Tensor):
        return mix(points, W)
    """
    assert findings(code) == []
