"""PointPillars: scatter pillar features back to a dense BEV canvas, then a small BEV backbone."""
import torch
import torch.nn as nn


class PointPillarsScatter(nn.Module):
    def __init__(self, in_channels: int = 32, output_shape=(16, 20)):
        super().__init__()
        self.in_channels = in_channels
        self.ny, self.nx = output_shape

    def forward(self, voxel_features: torch.Tensor, coors: torch.Tensor, batch_size: int) -> torch.Tensor:
        batch_canvas = []
        for b in range(batch_size):
            canvas = torch.zeros(self.in_channels, self.nx * self.ny, device=voxel_features.device)  # expect: DTL001
            batch_mask = coors[:, 0] == b
            this_coors = coors[batch_mask, :]
            indices = (this_coors[:, 2] * self.nx + this_coors[:, 3]).long()
            voxels = voxel_features[batch_mask, :].t()
            canvas[:, indices] = voxels
            batch_canvas.append(canvas)
        return torch.stack(batch_canvas, 0).view(batch_size, self.in_channels, self.ny, self.nx)


class PillarBEV(nn.Module):
    def __init__(self, in_channels: int = 32):
        super().__init__()
        self.scatter = PointPillarsScatter(in_channels)
        self.backbone = nn.Sequential(nn.Conv2d(in_channels, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())

    def forward(self, voxel_features: torch.Tensor, coors: torch.Tensor) -> torch.Tensor:
        batch_size = int(coors[-1, 0].item()) + 1
        return self.backbone(self.scatter(voxel_features, coors, batch_size))


def example():
    model = PillarBEV().to(torch.bfloat16).eval()
    P = 10
    ys, xs = torch.randperm(16)[:P], torch.randperm(20)[:P]
    coors = torch.stack([torch.tensor([0] * 5 + [1] * 5), torch.zeros(P, dtype=torch.long), ys, xs], dim=1)
    return model, (torch.randn(P, 32, dtype=torch.bfloat16), coors)
