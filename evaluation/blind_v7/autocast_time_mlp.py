import math

import torch
from torch import nn


def fourier_time_features(t: torch.Tensor, dim: int) -> torch.Tensor:
    half = dim // 2
    freqs = torch.exp(torch.arange(half, device=t.device, dtype=torch.float32) * (-math.log(10000.0) / (half - 1)))
    ang = t.float()[:, None] * freqs[None]
    return torch.cat([ang.sin(), ang.cos()], dim=-1)


class ScoreNetTimeBranch(nn.Module):
    """Score-SDE style time conditioning, run under autocast as the training loop does."""

    def __init__(self, dim: int = 32, channels: int = 8) -> None:
        super().__init__()
        self.dim = dim
        self.time_mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.SiLU(), nn.Linear(dim * 2, channels))
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16):
            temb = self.time_mlp(fourier_time_features(t, self.dim))  # lookalike: autocast casts the layer input
            return self.conv(x + temb[:, :, None, None])


def example():
    torch.manual_seed(0)
    model = ScoreNetTimeBranch().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 8, 8, dtype=torch.bfloat16), torch.rand(2))
