import math

import torch
import torch.nn as nn


def transform_points(points: torch.Tensor, R: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """Apply x' = R x + t to a batch of (B, N, 3) points."""
    return (
        points @ R.transpose(-1, -2)  # expect: DTL002
        + t[..., None, :]  # expect: DTL002
    )


class ScanRegistrationHead(nn.Module):
    """Refines source points with a predicted flow, then moves them by the scan's pose."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.flow = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 3))

    def forward(self, src_pts, src_feats, R, t):
        moved = transform_points(src_pts + self.flow(src_feats), R, t)
        return moved


def example():
    model = ScanRegistrationHead().to(torch.bfloat16)
    c, s = math.cos(0.3), math.sin(0.3)
    R = torch.tensor([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3)
    t = torch.tensor([[0.5, 0.0, 0.1], [0.0, 0.2, 0.0]])
    pts = torch.randn(2, 100, 3, dtype=torch.bfloat16)
    return model, (pts, torch.randn(2, 100, 32, dtype=torch.bfloat16), R, t)
