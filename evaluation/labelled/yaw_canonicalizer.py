import torch
import torch.nn as nn


def rotate_about_z(points, angle):
    """Rotate (B, N, 3) points by per-sample yaw angles (B,)."""
    c, s = torch.cos(angle), torch.sin(angle)
    R = torch.zeros(points.shape[0], 3, 3, device=points.device)  # expect: DTL001
    R[:, 0, 0] = c
    R[:, 0, 1] = -s
    R[:, 1, 0] = s
    R[:, 1, 1] = c
    R[:, 2, 2] = 1.0
    return points @ R.transpose(1, 2)


class YawCanonicalizer(nn.Module):
    def __init__(self, dim: int = 128):
        super().__init__()
        self.yaw = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, points):
        yaw = self.yaw(points).mean(dim=1).squeeze(-1)
        return rotate_about_z(points, -yaw)
