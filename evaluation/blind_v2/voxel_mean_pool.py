"""Dynamic voxelization: scatter-mean point features per occupied voxel."""

import torch
import torch.nn as nn


class DynamicVoxelMean(nn.Module):
    def __init__(self, in_ch: int = 4, out_ch: int = 8, voxel_size: float = 1.0):
        super().__init__()
        self.voxel_size = voxel_size
        self.mlp = nn.Linear(in_ch, out_ch)

    def forward(self, points):
        """points: (N, 3 + C) -> unique voxel coords (V, 3) int64 and mean features (V, out_ch)."""
        coords = torch.floor(points[:, :3] / self.voxel_size).long()
        uniq, inverse = torch.unique(coords, dim=0, return_inverse=True)
        feats = self.mlp(points[:, 3:])
        sums = feats.new_zeros(uniq.shape[0], feats.shape[1])
        sums.index_add_(0, inverse, feats)
        counts = torch.bincount(inverse, minlength=uniq.shape[0])
        means = sums / counts.clamp(min=1)[:, None]
        order = torch.argsort(counts, descending=True)
        return uniq[order], means[order]


def example():
    pts = torch.cat([torch.rand(30, 3) * 3, torch.randn(30, 4)], dim=1).to(torch.bfloat16)
    return DynamicVoxelMean().to(torch.bfloat16), (pts,)
