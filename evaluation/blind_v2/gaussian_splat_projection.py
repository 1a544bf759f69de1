"""EWA projection of 3D Gaussians to the image plane (3D Gaussian splatting).

``viewmats``: (4, 4) world-to-camera matrix and ``Ks``: (3, 3) intrinsics of one camera,
as the data loader gives them.
"""

import torch
import torch.nn as nn


def quat_to_rotmat(quats):
    w, x, y, z = torch.nn.functional.normalize(quats, dim=-1).unbind(-1)
    return torch.stack(
        [
            1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
        ],
        dim=-1,
    ).reshape(*quats.shape[:-1], 3, 3)


def project_gaussians(means, quats, scales, viewmats, Ks):
    """means: (N, 3), quats: (N, 4), scales: (N, 3) -> means2d (N, 2), cov2d (N, 2, 2)."""
    N = means.shape[0]
    means_cam = means @ viewmats[:3, :3].T + viewmats[:3, 3]  # expect: DTL002
    rot = quat_to_rotmat(quats)
    M = rot * scales[:, None, :]
    cov3d = M @ M.transpose(1, 2)
    fx, fy = Ks[0, 0], Ks[1, 1]
    x, y, z = means_cam.unbind(-1)
    z = z.clamp(min=0.01)
    J = torch.zeros(N, 2, 3, device=means.device)  # expect: DTL001
    J[:, 0, 0] = fx / z
    J[:, 0, 2] = -fx * x / (z * z)
    J[:, 1, 1] = fy / z
    J[:, 1, 2] = -fy * y / (z * z)
    cov2d = J @ cov3d @ J.transpose(1, 2)
    means2d_h = means_cam @ Ks.T  # expect: DTL002
    means2d = means2d_h[:, :2] / z[:, None]
    return means2d, cov2d + 0.3 * torch.eye(2, dtype=cov2d.dtype)


class GaussianModel(nn.Module):
    def __init__(self, num_points: int = 32):
        super().__init__()
        self.means = nn.Parameter(torch.randn(num_points, 3) * 0.5 + torch.tensor([0.0, 0.0, 4.0]))
        self.quats = nn.Parameter(torch.randn(num_points, 4))
        self.log_scales = nn.Parameter(torch.full((num_points, 3), -2.0))

    def forward(self, viewmats, Ks):
        return project_gaussians(self.means, self.quats, self.log_scales.exp(), viewmats, Ks)


def example():
    model = GaussianModel().to(torch.bfloat16)
    viewmats = torch.eye(4)
    Ks = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 32.0], [0.0, 0.0, 1.0]])
    return model, (viewmats, Ks)
