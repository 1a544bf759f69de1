import torch
import torch.nn as nn


def build_rotation(r):
    norm = torch.sqrt(r[:, 0] * r[:, 0] + r[:, 1] * r[:, 1] + r[:, 2] * r[:, 2] + r[:, 3] * r[:, 3])
    q = r / norm[:, None]
    R = torch.zeros((q.size(0), 3, 3), device=r.device)  # expect: DTL001
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    R[:, 0, 0] = 1 - 2 * (y * y + z * z)
    R[:, 0, 1] = 2 * (x * y - w * z)
    R[:, 0, 2] = 2 * (x * z + w * y)
    R[:, 1, 0] = 2 * (x * y + w * z)
    R[:, 1, 1] = 1 - 2 * (x * x + z * z)
    R[:, 1, 2] = 2 * (y * z - w * x)
    R[:, 2, 0] = 2 * (x * z - w * y)
    R[:, 2, 1] = 2 * (y * z + w * x)
    R[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return R


def build_scaling_rotation(s, r):
    L = torch.zeros((s.shape[0], 3, 3), device=s.device)  # expect: DTL001
    R = build_rotation(r)
    L[:, 0, 0] = s[:, 0]
    L[:, 1, 1] = s[:, 1]
    L[:, 2, 2] = s[:, 2]
    return R @ L


class GaussianCovariance(nn.Module):
    def __init__(self, num_points: int = 128):
        super().__init__()
        self._scaling = nn.Parameter(torch.randn(num_points, 3) * 0.1 - 3.0)
        self._rotation = nn.Parameter(torch.randn(num_points, 4))

    def forward(self, visible, scaling_modifier: float = 1.0):
        s = torch.exp(self._scaling[visible]) * scaling_modifier
        L = build_scaling_rotation(s, self._rotation[visible])
        cov = L @ L.transpose(1, 2)
        return cov[:, [0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]


def example():
    model = GaussianCovariance().to(torch.bfloat16)
    visible = torch.rand(128) > 0.3
    return model, (visible,)
