"""Hand encoder: per-finger local coordinate frames from 21 regressed joints (MANO joint order)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

FINGER_ROOTS = (1, 5, 9, 13, 17)
FINGER_TIPS = (4, 8, 12, 16, 20)


class HandFrameEncoder(nn.Module):
    def __init__(self, feat_dim: int = 64):
        super().__init__()
        self.joint_head = nn.Linear(feat_dim, 21 * 3)
        self.local_mlp = nn.Sequential(nn.Linear(5 * 21 * 3, feat_dim), nn.ReLU())

    def compute_frames(self, joints: torch.Tensor):
        B, device = joints.shape[0], joints.device
        origins = torch.zeros(B, 5, 3, device=device)  # expect: DTL001
        for f, root in enumerate(FINGER_ROOTS):
            origins[:, f] = joints[:, root]
        z_axis = F.normalize(joints[:, list(FINGER_TIPS)] - origins, dim=-1)
        y_global = torch.tensor([0, 1, 0], device=device).expand_as(z_axis)  # expect: DTL001
        x_axis = F.normalize(torch.cross(y_global, z_axis, dim=-1), dim=-1)
        y_axis = torch.cross(z_axis, x_axis, dim=-1)
        rotations = torch.stack([x_axis, y_axis, z_axis], dim=-1)  # lookalike: rotations computed from activations
        return origins, rotations

    def forward(self, feat: torch.Tensor) -> torch.Tensor:
        B = feat.shape[0]
        joints = self.joint_head(feat).view(B, 21, 3)
        origins, rotations = self.compute_frames(joints)
        rel = joints[:, None] - origins[:, :, None]
        local = torch.einsum("bfji,bfkj->bfki", rotations, rel)
        return self.local_mlp(local.reshape(B, -1))


def example():
    enc = HandFrameEncoder().to(torch.bfloat16)
    return enc, (torch.randn(2, 64, dtype=torch.bfloat16),)
