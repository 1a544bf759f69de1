"""Weak-perspective-to-full-perspective camera conversion and keypoint projection."""

import torch
import torch.nn as nn


def convert_weak_perspective(pred_cam, focal_length: float, img_res: int):
    """pred_cam: (B, 3) [s, tx, ty] -> camera translation (B, 3)."""
    s, tx, ty = pred_cam.unbind(-1)
    tz = 2 * focal_length / (img_res * s.abs().clamp(min=1e-3))
    return torch.stack([tx, ty, tz], dim=-1)


class CameraHead(nn.Module):
    def __init__(self, dim: int = 32, focal_length: float = 500.0, img_res: int = 224):
        super().__init__()
        self.focal_length = focal_length
        self.img_res = img_res
        self.cam = nn.Linear(dim, 3)

    def forward(self, feats, joints, R, t, K):
        """joints: (B, J, 3) model frame; R/t: dataset body-to-world pose; K: intrinsics."""
        pred_t = convert_weak_perspective(self.cam(feats), self.focal_length, self.img_res)
        world = joints @ R.to(joints.dtype).mT + t.to(joints.dtype)[:, None]
        cam = world + pred_t[:, None]
        uvw = torch.einsum("bij,bnj->bni", K.type_as(cam), cam)
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)


def example():
    B, J = 2, 14
    head = CameraHead().to(torch.bfloat16)
    R = torch.eye(3, dtype=torch.float64).expand(B, 3, 3)
    t = torch.zeros(B, 3, dtype=torch.float64)
    K = torch.tensor([[500.0, 0.0, 112.0], [0.0, 500.0, 112.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    return head, (torch.randn(B, 32, dtype=torch.bfloat16), torch.randn(B, J, 3, dtype=torch.bfloat16), R, t, K)
