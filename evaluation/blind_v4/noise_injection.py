import torch
import torch.nn as nn


class NoiseInjection(nn.Module):
    """StyleGAN-style per-pixel noise injection followed by a conv and a constant bias map."""

    def __init__(self, channels: int = 16):
        super().__init__()
        self.weight = nn.Parameter(torch.full((1, channels, 1, 1), 0.1))
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, noise_scale: float = 1.0):
        B, C, H, W = x.shape
        opts = dict(device=x.device, dtype=x.dtype)
        noise = torch.randn(B, 1, H, W, **opts) * noise_scale  # lookalike: dtype in an options dict
        bias = torch.ones(1, C, 1, 1, **opts)  # lookalike: dtype in an options dict
        return self.conv(x + self.weight * noise) + bias


def example():
    model = NoiseInjection().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 8, 8, dtype=torch.bfloat16),)
