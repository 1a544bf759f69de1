import torch
import torch.nn as nn


class VoxelPointPooling(nn.Module):
    """Points sorted by voxel; pools each voxel's first point and mean feature."""

    def __init__(self, in_dim: int = 8, dim: int = 32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU())

    def forward(self, point_feats, points_per_voxel):
        h = self.mlp(point_feats)
        offsets = torch.cumsum(points_per_voxel, 0) - points_per_voxel  # lookalike: integer offsets
        first = h[offsets]
        voxel_ids = torch.arange(len(points_per_voxel), device=h.device)  # lookalike: index
        seg = torch.repeat_interleave(voxel_ids, points_per_voxel)
        summed = torch.zeros_like(first).index_add_(0, seg, h)
        mean = summed / points_per_voxel[:, None]
        return torch.cat([first, mean], dim=-1)


def example():
    model = VoxelPointPooling().to(torch.bfloat16)
    counts = torch.tensor([3, 1, 4, 2, 5])
    return model, (torch.randn(int(counts.sum()), 8, dtype=torch.bfloat16), counts)
