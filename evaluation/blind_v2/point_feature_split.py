"""Point transformer input layer: split raw point tokens into xyz and features."""

import torch
import torch.nn as nn


def split_points(points, xyz_dim: int = 3):
    """points: (B, N, 3 + C) -> xyz (B, N, 3), features (B, N, C)."""
    return points[..., :xyz_dim], points[..., xyz_dim:]


class PointEmbedding(nn.Module):
    def __init__(self, in_feats: int = 4, dim: int = 32):
        super().__init__()
        self.pos_mlp = nn.Sequential(nn.Linear(4, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.feat_mlp = nn.Linear(in_feats, dim)

    def forward(self, points, center):
        xyz, feats = split_points(points)
        xyz = xyz - center[:, None, :]
        ones = torch.ones(*xyz.shape[:-1], 1, device=xyz.device)  # expect: DTL001
        pos = self.pos_mlp(torch.cat([xyz, ones], dim=-1))
        return self.feat_mlp(feats) + pos


def example():
    model = PointEmbedding().to(torch.bfloat16)
    points = torch.randn(2, 50, 7, dtype=torch.bfloat16)
    center = points[..., :3].mean(1)
    return model, (points, center)
