import torch
import torch.nn as nn


class GaussianProjector(nn.Module):
    """Projects learnable Gaussian means into a view given its world-to-camera viewmat."""

    def __init__(self, num_gaussians: int = 256):
        super().__init__()
        self.means = nn.Parameter(torch.randn(num_gaussians, 3))
        self.offsets = nn.Linear(3, 3)

    def forward(self, viewmat: torch.Tensor, K: torch.Tensor):
        means = self.means + 0.01 * self.offsets(self.means)
        R = viewmat[:3, :3]
        t = viewmat[:3, 3]
        means_cam = (
            means @ R.T  # expect: DTL002
            + t  # expect: DTL002
        )
        depth = means_cam[:, 2:3].clamp(min=0.01)
        Kc = K.to(means_cam.dtype)  # lookalike: intrinsics cast
        uv = means_cam[:, :2] / depth * Kc.diagonal()[:2] + Kc[:2, 2]
        return uv, depth


def example():
    model = GaussianProjector().to(torch.bfloat16)
    viewmat = torch.eye(4)
    viewmat[2, 3] = 5.0
    K = torch.tensor([[80.0, 0, 40], [0, 80.0, 30], [0, 0, 1]])
    return model, (viewmat, K)
