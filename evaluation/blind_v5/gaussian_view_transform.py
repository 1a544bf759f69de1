import torch
from torch import nn


class GaussianViewTransform(nn.Module):
    """3D Gaussian splatting: moves the learned means into a camera's view space."""

    def __init__(self, num_points: int = 256):
        super().__init__()
        self.means = nn.Parameter(torch.randn(num_points, 3))
        self.log_scales = nn.Parameter(torch.zeros(num_points, 3))

    def forward(self, viewmat, near: float = 0.01):
        N = self.means.shape[0]
        means_h = torch.cat(
            [self.means, torch.ones(N, 1, device=self.means.device)],  # expect: DTL001
            dim=-1,
        )
        means_cam = torch.einsum(
            "ij,nj->ni",
            viewmat,  # expect: DTL002
            means_h,
        )[:, :3]
        visible = means_cam[:, 2] > near
        return means_cam, self.log_scales.exp(), visible


def example():
    torch.manual_seed(0)
    model = GaussianViewTransform().to(torch.bfloat16)
    viewmat = torch.eye(4)
    viewmat[2, 3] = 5.0
    return model, (viewmat,)
