import torch
from torch import nn


class VoxelFeaturePool(nn.Module):
    """Dynamic voxelisation: mean-pools point features per occupied voxel (DynamicVFE-style)."""

    def __init__(self, in_dim: int = 4, feat_dim: int = 32, voxel_size: float = 0.5):
        super().__init__()
        self.voxel_size = voxel_size
        self.point_mlp = nn.Sequential(nn.Linear(in_dim, feat_dim), nn.ReLU())

    def forward(self, points):
        coords = torch.floor(points[:, :3].float() / self.voxel_size).long()  # lookalike: rounded index math
        uniq, inverse = torch.unique(coords, dim=0, return_inverse=True)
        counts = torch.bincount(inverse, minlength=uniq.shape[0])  # lookalike: integer counts
        feats = self.point_mlp(points)
        pooled = torch.zeros(uniq.shape[0], feats.shape[1], device=feats.device)  # expect: DTL001
        pooled.index_add_(0, inverse, feats)
        pooled = pooled / counts.clamp(min=1).unsqueeze(1)
        return pooled, uniq


def example():
    torch.manual_seed(0)
    model = VoxelFeaturePool().to(torch.bfloat16)
    points = (torch.rand(300, 4) * 4).to(torch.bfloat16)
    return model, (points,)
