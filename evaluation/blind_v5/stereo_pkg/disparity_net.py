import torch
import torch.nn.functional as F
from torch import nn

from .cost_ops import build_concat_volume, soft_argmin


class DisparityNet(nn.Module):
    """GC-Net-like stereo: shared features, concat volume, 3D aggregation, soft argmin."""

    def __init__(self, in_channels: int = 3, dim: int = 8, max_disp: int = 12):
        super().__init__()
        self.max_disp = max_disp
        self.feature = nn.Sequential(nn.Conv2d(in_channels, dim, 3, stride=2, padding=1), nn.ReLU())
        self.aggregate = nn.Sequential(
            nn.Conv3d(2 * dim, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 1, 3, padding=1)
        )

    def forward(self, left, right):
        fl, fr = self.feature(left), self.feature(right)
        D = self.max_disp // 2
        cost = self.aggregate(build_concat_volume(fl, fr, D)).squeeze(1)
        disp = soft_argmin(
            cost,
            torch.linspace(0, D - 1, D, device=cost.device),  # expect: DTL001
        )
        return F.interpolate(disp * 2, scale_factor=2, mode="bilinear", align_corners=False)


def example():
    torch.manual_seed(0)
    model = DisparityNet().to(torch.bfloat16)
    left = torch.rand(2, 3, 16, 24).to(torch.bfloat16)
    right = torch.rand(2, 3, 16, 24).to(torch.bfloat16)
    return model, (left, right)
