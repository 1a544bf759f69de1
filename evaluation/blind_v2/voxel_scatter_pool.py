"""Pillar/voxel feature encoder: scatter-mean point features into their voxels."""

import torch
import torch.nn as nn


class VoxelFeatureEncoder(nn.Module):
    def __init__(self, in_ch: int = 4, out_ch: int = 16, voxel_size: float = 0.5, grid: int = 8):
        super().__init__()
        self.voxel_size = voxel_size
        self.grid = grid
        self.pfn = nn.Sequential(nn.Linear(in_ch + 3, out_ch), nn.ReLU())

    def forward(self, points):
        """points: (N, 3 + C) in metres, inside [0, grid * voxel_size)."""
        coords = (points[:, :3] / self.voxel_size).long().clamp(0, self.grid - 1)
        voxel_idx = (coords[:, 0] * self.grid + coords[:, 1]) * self.grid + coords[:, 2]
        num_voxels = self.grid ** 3
        counts = torch.bincount(voxel_idx, minlength=num_voxels).clamp(min=1)
        centers = (coords.to(points.dtype) + 0.5) * self.voxel_size
        feats = self.pfn(torch.cat([points[:, 3:], points[:, :3] - centers], dim=-1))
        pooled = torch.zeros(num_voxels, feats.shape[1], device=feats.device)  # expect: DTL001
        pooled.index_add_(0, voxel_idx, feats)
        pooled = pooled / counts[:, None]
        return pooled.view(self.grid, self.grid, self.grid, -1).permute(3, 0, 1, 2)


def example():
    enc = VoxelFeatureEncoder().to(torch.bfloat16)
    xyz = torch.rand(100, 3) * 3.9
    points = torch.cat([xyz, torch.rand(100, 4)], dim=-1).to(torch.bfloat16)
    return enc, (points,)
