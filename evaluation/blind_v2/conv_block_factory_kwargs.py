"""Conv block whose auxiliary state is created with the caller's factory kwargs."""

import torch
import torch.nn as nn


class GatedConvBlock(nn.Module):
    def __init__(self, channels: int = 8, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.conv = nn.Conv2d(channels, 2 * channels, 3, padding=1, **factory_kwargs)
        self.gate_bias = nn.Parameter(torch.zeros(channels, **factory_kwargs))

    def forward(self, x, memory=None):
        B, C, H, W = x.shape
        factory_kwargs = {"device": x.device, "dtype": x.dtype}
        if memory is None:
            memory = torch.zeros(B, C, H, W, **factory_kwargs)
        a, g = self.conv(x).chunk(2, dim=1)
        gate = torch.sigmoid(g + self.gate_bias[:, None, None])
        opts = dict(device=x.device, dtype=x.dtype)
        border = torch.ones(1, 1, H, W, **opts)
        border[..., 0, :] = 0.5
        border[..., -1, :] = 0.5
        return (gate * a + (1 - gate) * memory) * border


def example():
    block = GatedConvBlock(dtype=torch.bfloat16)
    return block, (torch.randn(2, 8, 6, 6, dtype=torch.bfloat16),)
