import torch
import torch.nn as nn


class TrajectoryEncoder(nn.Module):
    """Encodes relative camera motion between consecutive frames."""

    def __init__(self, dim: int = 256):
        super().__init__()
        self.motion_mlp = nn.Sequential(nn.Linear(12, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, x, poses):
        rel = torch.einsum("bnij,bnjk->bnik", torch.inverse(poses[:, :-1]), poses[:, 1:])  # lookalike: camera @ camera
        motion = self.motion_mlp(rel[..., :3, :].flatten(-2).to(x.dtype))  # lookalike: camera values cast
        return x[:, 1:] + motion
