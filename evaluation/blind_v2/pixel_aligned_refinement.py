"""Pixel-aligned refinement of 3D hand/body points.

Projects the current 3D estimate into the image with the dataset calibration, samples
image features at the projected locations and regresses a residual update.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelAlignedRefinement(nn.Module):
    def __init__(self, feat_dim: int = 32, hidden: int = 64):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(feat_dim + 3, hidden),
            nn.ReLU(inplace=True),
            nn.Linear(hidden, 3),
        )

    def project(self, points_3d, intrinsics, extrinsics, image_size):
        """points_3d: (B, N, 3) world points -> normalized image coords in [-1, 1]."""
        B, N, _ = points_3d.shape
        points_homo = torch.cat(
            [points_3d, torch.ones(B, N, 1, device=points_3d.device)], dim=-1  # expect: DTL001
        )
        points_cam = torch.matmul(
            points_homo,
            extrinsics.transpose(-1, -2)  # expect: DTL002
        )
        points_cam = points_cam[..., :3]
        points_2d_homo = torch.matmul(points_cam, intrinsics.transpose(-1, -2))  # expect: DTL002
        points_2d = points_2d_homo[..., :2] / points_2d_homo[..., 2:3].clamp(min=1e-4)
        h, w = image_size
        grid = torch.stack([points_2d[..., 0] / (w - 1), points_2d[..., 1] / (h - 1)], dim=-1)
        return grid * 2.0 - 1.0

    def forward(self, points_3d, feature_map, intrinsics, extrinsics):
        h, w = feature_map.shape[-2:]
        grid = self.project(points_3d, intrinsics, extrinsics, (h, w))
        sampled = F.grid_sample(feature_map, grid.unsqueeze(2), align_corners=True)
        sampled = sampled.squeeze(-1).transpose(1, 2)  # (B, N, C)
        delta = self.mlp(torch.cat([sampled, points_3d], dim=-1))
        return points_3d + delta


def example():
    B, N, C, H, W = 2, 21, 32, 16, 16
    model = PixelAlignedRefinement(feat_dim=C).to(torch.bfloat16)
    points = (torch.randn(B, N, 3) * 0.1 + torch.tensor([0.0, 0.0, 2.0])).to(torch.bfloat16)
    feats = torch.randn(B, C, H, W, dtype=torch.bfloat16)
    intrinsics = torch.tensor([[20.0, 0.0, 8.0], [0.0, 20.0, 8.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    extrinsics = torch.eye(4).expand(B, 4, 4)
    return model, (points, feats, intrinsics, extrinsics)
