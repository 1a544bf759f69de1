import math

import torch
import torch.nn as nn


class TimestepEmbedder(nn.Module):
    """Sinusoidal timestep embedding followed by an MLP (DiT style)."""

    def __init__(self, dim: int = 256, max_period: float = 10000.0):
        super().__init__()
        self.dim = dim
        self.max_period = max_period
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, 4 * dim))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.logspace(  # expect: DTL001
            0.0, -math.log10(self.max_period), half, device=t.device
        )
        args = t[:, None] * freqs[None]
        emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        return self.mlp(emb)
