import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelAlignedRefinement(nn.Module):
    """Refines 3D points with image features sampled at their projections."""

    def __init__(self, feat_dim: int = 256, hidden: int = 128):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(feat_dim + 3, hidden), nn.ReLU(inplace=True), nn.Linear(hidden, 3)
        )

    def forward(self, points_3d, feat_map, intrinsics, extrinsics):
        B, N, _ = points_3d.shape
        ones = torch.ones(B, N, 1, device=points_3d.device)  # expect: DTL001
        points_homo = torch.cat([points_3d, ones], dim=-1)
        points_cam = torch.matmul(
            points_homo,
            extrinsics.transpose(-1, -2),  # expect: DTL002
        )[..., :3]
        points_2d_homo = torch.matmul(points_cam, intrinsics.transpose(-1, -2))  # expect: DTL002
        uv = points_2d_homo[..., :2] / points_2d_homo[..., 2:].clamp(min=1e-6)
        H, W = feat_map.shape[-2:]
        grid = torch.stack([uv[..., 0] / (W - 1), uv[..., 1] / (H - 1)], dim=-1) * 2 - 1
        sampled = F.grid_sample(feat_map, grid.unsqueeze(2), align_corners=True)
        sampled = sampled.squeeze(-1).transpose(1, 2)
        return points_3d + self.mlp(torch.cat([sampled, points_3d], dim=-1))
