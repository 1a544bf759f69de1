"""Iterative rotation refinement: predict an axis-angle update and apply it with Rodrigues."""

import torch
import torch.nn as nn


def skew(w):
    """w: (B, 3) -> skew-symmetric (B, 3, 3)."""
    zero = torch.zeros_like(w[:, 0])
    return torch.stack(
        [zero, -w[:, 2], w[:, 1], w[:, 2], zero, -w[:, 0], -w[:, 1], w[:, 0], zero], dim=-1
    ).view(-1, 3, 3)


def axis_angle_to_matrix(omega, eps: float = 1e-6):
    theta = omega.norm(dim=-1, keepdim=True).clamp(min=eps)[..., None]  # (B, 1, 1)
    K = skew(omega / theta[..., 0])
    eye = torch.eye(3, device=omega.device)  # expect: DTL001
    return eye + torch.sin(theta) * K + (1 - torch.cos(theta)) * (K @ K)


class RotationRefiner(nn.Module):
    def __init__(self, feat_dim: int = 32, iters: int = 2):
        super().__init__()
        self.iters = iters
        self.update = nn.Sequential(nn.Linear(feat_dim + 9, 64), nn.ReLU(), nn.Linear(64, 3))

    def forward(self, feats, R_init):
        """feats: (B, C); R_init: (B, 3, 3) initial rotation estimate from the network."""
        R = R_init
        for _ in range(self.iters):
            omega = self.update(torch.cat([feats, R.flatten(1)], dim=-1)) * 0.1
            R = axis_angle_to_matrix(omega) @ R
        return R


def example():
    model = RotationRefiner().to(torch.bfloat16)
    feats = torch.randn(2, 32, dtype=torch.bfloat16)
    R_init = torch.eye(3, dtype=torch.bfloat16).expand(2, 3, 3)
    return model, (feats, R_init)
