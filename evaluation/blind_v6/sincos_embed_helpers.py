"""Sinusoidal embeddings from helpers that receive the dtype and device of their caller."""
import math

import torch
import torch.nn as nn


def get_1d_sincos(pos: torch.Tensor, dim: int, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    omega = torch.arange(dim // 2, dtype=dtype, device=device) / (dim / 2.0)  # lookalike: helper receives dtype=
    omega = 1.0 / (10000**omega)
    out = pos.reshape(-1)[:, None].to(dtype) * omega[None]
    return torch.cat([out.sin(), out.cos()], dim=1)


def fourier_features(x: torch.Tensor, num_bands: int, dtype=None) -> torch.Tensor:
    dtype = dtype or x.dtype
    freqs = torch.logspace(0.0, math.log10(32.0), num_bands, device=x.device, dtype=dtype)  # lookalike: dtype given
    xf = x[..., None] * freqs * math.pi
    return torch.cat([x, xf.sin().flatten(-2), xf.cos().flatten(-2)], dim=-1)


class PerceiverPositions(nn.Module):
    def __init__(self, dim: int = 32, num_bands: int = 4):
        super().__init__()
        self.num_bands = num_bands
        self.proj = nn.Linear(2 + 2 * 2 * num_bands + dim, dim)

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        B, H, W, C = feats.shape
        ys = torch.linspace(-1, 1, H, device=feats.device, dtype=feats.dtype)  # lookalike: dtype given
        xs = torch.linspace(-1, 1, W, device=feats.device, dtype=feats.dtype)
        grid = torch.stack(torch.meshgrid(ys, xs, indexing="ij"), dim=-1)
        pos = fourier_features(grid, self.num_bands, dtype=feats.dtype)
        time = get_1d_sincos(torch.arange(H * W, device=feats.device), C, feats.dtype, feats.device)
        x = torch.cat([pos.expand(B, -1, -1, -1), feats + time.view(H, W, C)], dim=-1)
        return self.proj(x)


def example():
    m = PerceiverPositions().to(torch.bfloat16)
    return m, (torch.randn(2, 4, 5, 32, dtype=torch.bfloat16),)
