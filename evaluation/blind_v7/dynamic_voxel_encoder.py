import torch
from torch import nn


class DynamicVoxelEncoder(nn.Module):
    """Dynamic voxelization feature net (MVX/CenterPoint style): point features plus offsets to voxel centres."""

    def __init__(self, voxel_size=(0.2, 0.2, 4.0), pc_range=(-6.4, -6.4, -2.0, 6.4, 6.4, 2.0), out_dim: int = 32) -> None:
        super().__init__()
        self.vx, self.vy, self.vz = voxel_size
        self.pc_range = list(pc_range)
        self.pfn = nn.Sequential(nn.Linear(4 + 3, out_dim), nn.LayerNorm(out_dim), nn.ReLU())

    def forward(self, points: torch.Tensor, coors: torch.Tensor) -> torch.Tensor:
        # points: (N, 4) x, y, z, intensity; coors: (N, 3) integer z, y, x voxel indices
        voxel_size = torch.tensor([self.vx, self.vy, self.vz], device=points.device)  # expect: DTL001
        origin = torch.tensor(self.pc_range[:3], device=points.device)  # expect: DTL001
        centers = (coors[:, [2, 1, 0]].to(points.dtype) + 0.5) * voxel_size + origin
        offsets = points[:, :3] - centers
        return self.pfn(torch.cat([points, offsets], dim=-1))


def example():
    torch.manual_seed(0)
    model = DynamicVoxelEncoder().to(torch.bfloat16)
    points = (torch.rand(50, 4) * 10 - 5).to(torch.bfloat16)
    coors = torch.randint(0, 60, (50, 3))
    return model, (points, coors)
