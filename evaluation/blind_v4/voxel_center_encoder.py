import torch
import torch.nn as nn


class VoxelCenterEncoder(nn.Module):
    """Embeds refined voxel centres (grid index + predicted sub-voxel offset) in metres."""

    def __init__(self, voxel_size=(0.2, 0.2, 0.4), pc_range=(-8.0, -8.0, -2.0), dim: int = 32):
        super().__init__()
        self.vx, self.vy, self.vz = (float(v) for v in voxel_size)
        self.x0, self.y0, self.z0 = (float(v) for v in pc_range)
        self.offset_head = nn.Linear(dim, 3)
        self.embed = nn.Linear(3, dim)

    def forward(self, voxel_feats, voxel_coords):
        offsets = self.offset_head(voxel_feats).tanh() * 0.5
        size = torch.tensor([self.vx, self.vy, self.vz], device=voxel_feats.device)  # expect: DTL001
        origin = torch.tensor([self.x0, self.y0, self.z0], device=voxel_feats.device)  # expect: DTL001
        centers = (voxel_coords + offsets + 0.5) * size + origin
        return voxel_feats + self.embed(centers)


def example():
    model = VoxelCenterEncoder().to(torch.bfloat16)
    feats = torch.randn(50, 32, dtype=torch.bfloat16)
    coords = torch.randint(0, 40, (50, 3))
    return model, (feats, coords)
