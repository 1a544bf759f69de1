"""Depth-supervision step: projects LiDAR points into the image with the batch calibration."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthSupervisionLoss(nn.Module):
    def __init__(self, min_depth: float = 0.5):
        super().__init__()
        self.min_depth = min_depth

    def forward(self, pred_depth, batch):
        """pred_depth: (B, 1, H, W); batch["points"]: (B, N, 3) LiDAR points (model dtype);
        batch["extrinsics"]: (B, 4, 4) lidar-to-camera; batch["intrinsics"]: (B, 3, 3)."""
        points = batch["points"]
        B, N, _ = points.shape
        H, W = pred_depth.shape[-2:]
        points_h = F.pad(points, [0, 1], value=1.0)
        cam = (points_h @ batch["extrinsics"].transpose(1, 2))[..., :3]  # expect: DTL002
        uvz = cam @ batch["intrinsics"].transpose(1, 2)  # expect: DTL002
        z = uvz[..., 2]
        uv = uvz[..., :2] / z.clamp(min=1e-3)[..., None]
        grid = torch.stack([uv[..., 0] / (W - 1), uv[..., 1] / (H - 1)], dim=-1) * 2 - 1
        sampled = F.grid_sample(pred_depth, grid[:, :, None], align_corners=True)[:, 0, :, 0]
        valid = (z > self.min_depth) & (grid.abs() <= 1).all(-1)
        return ((sampled - z).abs() * valid).sum() / valid.sum().clamp(min=1)


def example():
    B, N = 2, 64
    pred_depth = (torch.rand(B, 1, 12, 16) * 20).to(torch.bfloat16)
    batch = {
        "points": (torch.rand(B, N, 3) * torch.tensor([4.0, 3.0, 20.0]) - torch.tensor([2.0, 1.5, 0.0])).to(torch.bfloat16),
        "extrinsics": torch.eye(4).expand(B, 4, 4),
        "intrinsics": torch.tensor([[10.0, 0.0, 8.0], [0.0, 10.0, 6.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3),
        "frame_id": ["000001", "000002"],
    }
    return DepthSupervisionLoss(), (pred_depth, batch)
