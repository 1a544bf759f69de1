"""Dynamic voxelization: raw LiDAR points to integer voxel coordinates (index math only)."""
import torch
import torch.nn as nn


class DynamicVoxelizer(nn.Module):
    def __init__(self, voxel_size=(0.2, 0.2, 4.0), point_cloud_range=(0.0, -40.0, -3.0, 70.4, 40.0, 1.0)):
        super().__init__()
        self.voxel_size = list(voxel_size)
        self.pc_min = list(point_cloud_range[:3])
        self.grid_size = [round((point_cloud_range[i + 3] - point_cloud_range[i]) / voxel_size[i]) for i in range(3)]

    def forward(self, points: torch.Tensor):
        """points: (N, 4) x, y, z, intensity, as the LiDAR loader gives them."""
        voxel_size = torch.tensor(self.voxel_size, device=points.device)
        shifted = points[:, :3] - points.new_tensor(self.pc_min)  # lookalike: new_tensor
        coors = (shifted / voxel_size).floor().long()  # lookalike: index math, rounded right away
        grid = torch.tensor(self.grid_size, device=points.device)  # lookalike: integer grid size
        valid = ((coors >= 0) & (coors < grid)).all(dim=1)
        coors = coors[valid]
        flat = (coors[:, 2] * grid[1] + coors[:, 1]) * grid[0] + coors[:, 0]
        unique, inverse, counts = torch.unique(flat, return_inverse=True, return_counts=True)
        return coors[:, [2, 1, 0]], inverse, counts


def example():
    m = DynamicVoxelizer().to(torch.bfloat16)
    n = 200
    pts = torch.stack([torch.rand(n) * 70, torch.rand(n) * 80 - 40, torch.rand(n) * 4 - 3, torch.rand(n)], dim=1)
    return m, (pts,)
