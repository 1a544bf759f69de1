"""Builds full projection matrices from calibration and projects predicted points."""

import torch
import torch.nn as nn


def compose_projection(K, R, t):
    """K: (B, 3, 3), R: (B, 3, 3), t: (B, 3, 1) -> P = K [R | t]  (B, 3, 4)."""
    Rt = torch.cat([R, t], dim=-1)
    return K @ Rt


class ProjectedPointHead(nn.Module):
    def __init__(self, dim: int = 16, num_pts: int = 8):
        super().__init__()
        self.num_pts = num_pts
        self.reg = nn.Linear(dim, num_pts * 3)

    def forward(self, feats, K, R, t):
        pts = self.reg(feats).view(-1, self.num_pts, 3)
        P = compose_projection(K, R, t)
        P = P.to(pts.dtype)
        pts_h = torch.cat([pts, torch.ones_like(pts[..., :1])], dim=-1)
        uvw = pts_h @ P.transpose(1, 2)
        return uvw[..., :2] / (uvw[..., 2:].abs() + 1e-3)


def example():
    B = 2
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 32.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    R = torch.eye(3).expand(B, 3, 3)
    t = torch.tensor([[0.0], [0.0], [5.0]]).expand(B, 3, 1)
    return ProjectedPointHead().to(torch.bfloat16), (torch.randn(B, 16, dtype=torch.bfloat16), K, R, t)
