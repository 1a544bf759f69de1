"""Per-joint local frames of a 21-joint hand, used as input features for a pose refiner."""

import torch
import torch.nn as nn
import torch.nn.functional as F

PARENTS = [0, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18, 19]


def local_frames(joints):
    """joints: (B, 21, 3) -> origins (B, 22, 3), rotations (B, 22, 3, 3)."""
    B, device = joints.shape[0], joints.device
    origins = torch.zeros(B, 22, 3, device=device, dtype=joints.dtype)
    rotations = torch.zeros(B, 22, 3, 3, device=device, dtype=joints.dtype)
    origins[:, 1:] = joints
    parents = torch.tensor(PARENTS, device=device)
    z_axis = F.normalize(joints - joints[:, parents] + 1e-3, dim=-1)
    y_global = torch.tensor([0, 1, 0], device=device, dtype=z_axis.dtype).expand_as(z_axis)
    x_axis = F.normalize(torch.cross(y_global, z_axis, dim=-1), dim=-1, eps=1e-6)
    y_axis = torch.cross(z_axis, x_axis, dim=-1)
    rotations[:, 1:] = torch.stack([x_axis, y_axis, z_axis], dim=-1)
    rotations[:, 0] = torch.eye(3, device=device, dtype=joints.dtype)
    return origins, rotations


class HandRefiner(nn.Module):
    def __init__(self, hidden: int = 64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(22 * 12, hidden), nn.ReLU(), nn.Linear(hidden, 21 * 3))

    def forward(self, joints):
        origins, rotations = local_frames(joints)
        feats = torch.cat([origins, rotations.flatten(2)], dim=-1).flatten(1)
        return joints + self.mlp(feats).view(-1, 21, 3)


def example():
    return HandRefiner().to(torch.bfloat16), (torch.randn(2, 21, 3, dtype=torch.bfloat16),)
