import numpy as np
import torch
from torch import nn
import torch.nn.functional as F


def gaussian_kernel2d(sigma: float, radius: int) -> torch.Tensor:
    ax = np.arange(-radius, radius + 1, dtype=np.float64)
    g = np.exp(-(ax ** 2) / (2.0 * sigma ** 2))
    k = np.outer(g, g)
    return torch.from_numpy(k / k.sum())


class LowPassConsistency(nn.Module):
    """Real-ESRGAN-style degradation-aware branch: compare the SR output's low-pass band with the input."""

    def __init__(self, channels: int = 3, scale: int = 2, sigma: float = 1.2) -> None:
        super().__init__()
        self.channels, self.scale, self.sigma = channels, scale, sigma
        self.body = nn.Sequential(nn.Conv2d(channels, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, channels * scale * scale, 3, padding=1))
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, lr: torch.Tensor) -> torch.Tensor:
        sr = self.shuffle(self.body(lr)) + F.interpolate(lr, scale_factor=self.scale, mode="nearest")
        kernel = gaussian_kernel2d(self.sigma, 2).to(sr.device)  # expect: DTL004
        B, C, H, W = sr.shape
        patches = F.unfold(F.pad(sr, (2, 2, 2, 2), mode="reflect"), 5).view(B, C, 25, H, W)
        low = (patches * kernel.view(1, 1, 25, 1, 1)).sum(dim=2)
        return sr, low[..., :: self.scale, :: self.scale] - lr


def example():
    torch.manual_seed(0)
    model = LowPassConsistency().to(torch.bfloat16)
    return model, (torch.rand(1, 3, 12, 12, dtype=torch.bfloat16),)
