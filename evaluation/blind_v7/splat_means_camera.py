import torch
from torch import nn


class GaussianCloudProjector(nn.Module):
    """3D Gaussian splatting pre-pass: learnable means and scales, world -> camera -> pixels."""

    def __init__(self, n: int = 64) -> None:
        super().__init__()
        self.means = nn.Parameter(torch.randn(n, 3) + torch.tensor([0.0, 0.0, 4.0]))
        self.log_scales = nn.Parameter(torch.full((n, 3), -2.0))

    def forward(self, viewmat: torch.Tensor, focal: float, cx: float, cy: float) -> torch.Tensor:
        means_cam = (
            self.means @ viewmat[:3, :3].T  # expect: DTL002
            + viewmat[:3, 3]  # expect: DTL002
        )
        z = means_cam[:, 2:3].clamp(min=0.01)
        uv = means_cam[:, :2] / z * focal + means_cam.new_tensor([cx, cy])
        radius = 3.0 * self.log_scales.exp().amax(-1, keepdim=True) * focal / z
        return torch.cat([uv, z, radius], dim=-1)


def example():
    torch.manual_seed(0)
    model = GaussianCloudProjector().to(torch.bfloat16)
    viewmat = torch.eye(4)
    viewmat[:3, 3] = torch.tensor([0.1, -0.2, 0.5])
    return model, (viewmat, 100.0, 32.0, 24.0)
