import torch
import torch.nn as nn
from torch import zeros


class VoxelMeanPool(nn.Module):
    """Average point features that fall into the same voxel."""

    def __init__(self, in_dim: int, out_dim: int, voxel_size: float = 0.2):
        super().__init__()
        self.voxel_size = voxel_size
        self.mlp = nn.Linear(in_dim, out_dim)

    def forward(self, points, feats):
        coords = torch.floor(points / self.voxel_size).long()
        uniq, inverse = torch.unique(coords, dim=0, return_inverse=True)
        V, C = uniq.shape[0], feats.shape[1]
        pooled = zeros(V, C, device=feats.device)  # expect: DTL001
        pooled.index_add_(0, inverse, feats)
        counts = torch.zeros(V, device=feats.device, dtype=torch.long)  # lookalike: dtype given (integer)
        counts.index_add_(0, inverse, torch.ones_like(inverse))  # lookalike: *_like
        pooled = pooled / counts.clamp(min=1).unsqueeze(1)
        return self.mlp(pooled), uniq
