import torch
from torch import Tensor


def to_homogeneous(x: Tensor) -> Tensor:
    ones = torch.ones(*x.shape[:-1], 1, device=x.device)  # expect: DTL001
    return torch.cat([x, ones], dim=-1)


def to_homogeneous_like(x: Tensor) -> Tensor:
    return torch.cat([x, torch.ones_like(x[..., :1])], dim=-1)  # lookalike: *_like


def from_homogeneous(x: Tensor, eps: float = 1e-6) -> Tensor:
    return x[..., :-1] / x[..., -1:].clamp(min=eps)


def transform_points(T: Tensor, pts: Tensor) -> Tensor:
    """Apply a predicted rigid transform T (B, 4, 4) to points (B, N, 3)."""
    return from_homogeneous(to_homogeneous_like(pts) @ T.transpose(-1, -2))  # expect: DTL002 (issue 8: `T` used as geometry counts)
