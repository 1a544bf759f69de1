"""Pinhole projection using per-image focal/principal scalars read from the intrinsics."""

import torch
import torch.nn as nn


def project_with_scalars(points, K):
    """points: (N, 3) camera frame (model dtype); K: (3, 3) intrinsics of one image."""
    fx, fy = K[0, 0], K[1, 1]
    cx, cy = K[0, 2], K[1, 2]
    z = points[:, 2].clamp(min=1e-3)
    u = fx * points[:, 0] / z + cx
    v = fy * points[:, 1] / z + cy
    return torch.stack([u, v], dim=-1)


class PerImageKeypointHead(nn.Module):
    def __init__(self, dim: int = 16):
        super().__init__()
        self.reg = nn.Linear(dim, 3)

    def forward(self, feats, Ks):
        """feats: list of (N_i, C) per image; Ks: (B, 3, 3)."""
        outs = []
        for f, K in zip(feats, Ks):
            pts = self.reg(f) + f.new_tensor([0.0, 0.0, 5.0])
            outs.append(project_with_scalars(pts, K))
        return torch.cat(outs, dim=0)


def example():
    feats = [torch.randn(3, 16, dtype=torch.bfloat16), torch.randn(5, 16, dtype=torch.bfloat16)]
    Ks = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 24.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3)
    return PerImageKeypointHead().to(torch.bfloat16), (feats, Ks)
