from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Camera:
    viewmat: torch.Tensor  # (4, 4) world -> camera
    K: torch.Tensor        # (3, 3)
    width: int
    height: int


def project_means(means: torch.Tensor, cam: Camera) -> torch.Tensor:
    """Project Gaussian centres (N, 3) to normalised image coordinates."""
    means_h = torch.cat([means, torch.ones_like(means[:, :1])], dim=-1)  # lookalike: *_like follows means
    means_cam = (means_h @ cam.viewmat.T)[:, :3]  # expect: DTL002
    uvw = means_cam @ cam.K.T  # expect: DTL002
    uv = uvw[:, :2] / uvw[:, 2:].clamp(min=1e-4)
    return uv / uv.new_tensor([cam.width, cam.height])  # lookalike: new_tensor follows uv


class SplatMeans(nn.Module):
    def __init__(self, n: int = 32):
        super().__init__()
        self.means = nn.Parameter(torch.randn(n, 3) * 0.5 + torch.tensor([0.0, 0.0, 4.0]))

    def forward(self, jitter: torch.Tensor, cam: Camera) -> torch.Tensor:
        return project_means(self.means + jitter, cam)


def example():
    torch.manual_seed(0)
    model = SplatMeans().to(torch.bfloat16)
    K = torch.tensor([[40.0, 0.0, 32.0], [0.0, 40.0, 32.0], [0.0, 0.0, 1.0]])
    cam = Camera(viewmat=torch.eye(4), K=K, width=64, height=64)
    jitter = (0.01 * torch.randn(32, 3)).to(torch.bfloat16)
    return model, (jitter, cam)
