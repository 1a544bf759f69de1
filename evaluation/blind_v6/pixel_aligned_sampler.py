"""Pixel-aligned feature sampling (PIFu / hand-object refinement style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelAlignedSampler(nn.Module):
    def __init__(self, feat_dim: int = 32, hidden: int = 64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(feat_dim + 3, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(
        self,
        points_3d: torch.Tensor,
        feat_map: torch.Tensor,
        intrinsics: torch.Tensor,
        extrinsics: torch.Tensor,
        img_size: int = 64,
    ) -> torch.Tensor:
        B, N, _ = points_3d.shape
        # homogeneous coordinates
        points_homo = torch.cat([points_3d, torch.ones(B, N, 1, device=points_3d.device)], dim=-1)  # expect: DTL001
        # world -> camera, the extrinsics act on column vectors
        points_cam = torch.matmul(
            points_homo,
            extrinsics.transpose(-1, -2),  # expect: DTL002
        )[..., :3]
        points_2d_homo = torch.matmul(points_cam, intrinsics.transpose(-1, -2))  # expect: DTL002
        uv = points_2d_homo[..., :2] / points_2d_homo[..., 2:].clamp(min=1e-4)
        grid = (uv / img_size) * 2.0 - 1.0
        sampled = F.grid_sample(feat_map, grid.unsqueeze(2), align_corners=False).squeeze(-1)
        sampled = sampled.transpose(1, 2)
        return points_3d + self.mlp(torch.cat([sampled, points_3d], dim=-1))


def example():
    B, N = 2, 16
    model = PixelAlignedSampler().to(torch.bfloat16)
    points = (torch.randn(B, N, 3) * 0.1 + torch.tensor([0.0, 0.0, 2.0])).to(torch.bfloat16)
    feat = torch.randn(B, 32, 16, 16, dtype=torch.bfloat16)
    K = torch.tensor([[60.0, 0.0, 32.0], [0.0, 60.0, 32.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    E = torch.eye(4).expand(B, 4, 4)
    return model, (points, feat, K, E)
