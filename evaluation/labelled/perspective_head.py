import torch
import torch.nn as nn


class PerspectiveHead(nn.Module):
    """Projects predicted camera-space joints with per-sample focal lengths (elementwise, no matmul)."""

    def __init__(self, dim: int = 256, num_joints: int = 17):
        super().__init__()
        self.num_joints = num_joints
        self.joints = nn.Linear(dim, num_joints * 3)

    def forward(self, feat, K):
        xyz = self.joints(feat).view(-1, self.num_joints, 3)
        fx, fy = K[:, 0, 0, None], K[:, 1, 1, None]  # lookalike: camera values used elementwise, not a matmul operand
        cx, cy = K[:, 0, 2, None], K[:, 1, 2, None]
        z = xyz[..., 2].clamp(min=1e-3)
        u = fx * xyz[..., 0] / z + cx
        v = fy * xyz[..., 1] / z + cy
        return torch.stack([u, v], dim=-1)
