"""3D Gaussian splatting: project learnable Gaussian means into a camera given its view matrix."""
import torch
import torch.nn as nn


class GaussianProjector(nn.Module):
    def __init__(self, num_gaussians: int = 128):
        super().__init__()
        self.means = nn.Parameter(torch.randn(num_gaussians, 3) * 0.5)
        self.log_scales = nn.Parameter(torch.full((num_gaussians, 3), -2.0))
        self.colors = nn.Parameter(torch.rand(num_gaussians, 3))

    def forward(self, viewmat: torch.Tensor, K: torch.Tensor, width: int, height: int):
        means_cam = (
            self.means @ viewmat[:3, :3].T  # expect: DTL002
            + viewmat[:3, 3]  # expect: DTL002
        )
        depth = means_cam[:, 2:3].clamp(min=0.01)
        uv = (means_cam / depth) @ K.T  # expect: DTL002
        uv = uv[:, :2]
        in_view = (uv[:, 0] >= 0) & (uv[:, 0] < width) & (uv[:, 1] >= 0) & (uv[:, 1] < height)
        radii = self.log_scales.exp().amax(dim=-1) * K[0, 0].item() / depth.squeeze(-1)
        opacity_weight = in_view.to(radii.dtype)  # lookalike: bool mask cast to the activation dtype
        return uv, depth, radii * opacity_weight, torch.sigmoid(self.colors)


def example():
    proj = GaussianProjector().to(torch.bfloat16)
    viewmat = torch.eye(4)
    viewmat[2, 3] = 4.0
    K = torch.tensor([[100.0, 0.0, 64.0], [0.0, 100.0, 48.0], [0.0, 0.0, 1.0]])
    return proj, (viewmat, K, 128, 96)
