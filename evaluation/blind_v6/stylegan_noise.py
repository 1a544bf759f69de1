"""StyleGAN2 synthesis pieces: per-pixel noise injection (two variants) in a styled conv block."""
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class NoiseInjection(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(1))

    def forward(self, image: torch.Tensor, noise: Optional[torch.Tensor] = None) -> torch.Tensor:
        if noise is None:
            batch, _, height, width = image.shape
            noise = torch.randn(batch, 1, height, width, device=image.device)  # expect: DTL001
        return image + self.weight * noise


class NoiseInjectionNewEmpty(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(1))

    def forward(self, image: torch.Tensor, noise: Optional[torch.Tensor] = None) -> torch.Tensor:
        if noise is None:
            batch, _, height, width = image.shape
            noise = image.new_empty(batch, 1, height, width).normal_()  # lookalike: new_* factory
        return image + self.weight * noise


class StyledConv(nn.Module):
    def __init__(self, ch: int = 16, style_dim: int = 32):
        super().__init__()
        self.modulation = nn.Linear(style_dim, ch)
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)
        self.noise_a = NoiseInjection()
        self.noise_b = NoiseInjectionNewEmpty()

    def forward(self, x: torch.Tensor, style: torch.Tensor) -> torch.Tensor:
        s = self.modulation(style)[:, :, None, None]
        x = self.noise_b(self.conv(x * s))
        return F.leaky_relu(self.noise_a(x), 0.2)


def example():
    m = StyledConv().to(torch.bfloat16)
    with torch.no_grad():
        m.noise_a.weight.fill_(0.1)
        m.noise_b.weight.fill_(0.1)
    return m, (torch.randn(2, 16, 8, 8, dtype=torch.bfloat16), torch.randn(2, 32, dtype=torch.bfloat16))
