"""Projection head running its camera math under autocast."""

import torch
import torch.nn as nn


class AutocastProjector(nn.Module):
    def __init__(self, dim: int = 16, num_pts: int = 6):
        super().__init__()
        self.num_pts = num_pts
        self.reg = nn.Linear(dim, num_pts * 3)

    def forward(self, feats, intrinsics, extrinsics):
        pts = self.reg(feats).view(-1, self.num_pts, 3) + feats.new_tensor([0.0, 0.0, 4.0])
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            pts_cam = torch.matmul(pts, extrinsics[:, :3, :3].transpose(1, 2))
            uvw = pts_cam @ intrinsics.transpose(1, 2)
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)


@torch.autocast(device_type="cpu", dtype=torch.bfloat16)
def project_points(points, K):
    """points: (B, N, 3) -> (B, N, 2); autocast handles the matmul operands."""
    uvw = torch.bmm(points, K.transpose(1, 2))
    return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)


class AutocastKeypointLoss(nn.Module):
    def forward(self, pred_points, gt_uv, K):
        return (project_points(pred_points, K) - gt_uv).abs().mean()


def example():
    B = 2
    model = AutocastProjector().to(torch.bfloat16)
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 32.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    E = torch.eye(4).expand(B, 4, 4)
    return model, (torch.randn(B, 16, dtype=torch.bfloat16), K, E)


def example_loss():
    B = 2
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 32.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    pts = (torch.randn(B, 5, 3) + torch.tensor([0.0, 0.0, 5.0])).to(torch.bfloat16)
    gt = torch.rand(B, 5, 2, dtype=torch.bfloat16) * 64
    return AutocastKeypointLoss(), (pts, gt, K)
