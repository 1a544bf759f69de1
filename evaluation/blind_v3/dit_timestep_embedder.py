import math

import torch
from torch import nn


def timestep_embedding(timesteps: torch.Tensor, dim: int, max_period: int = 10000) -> torch.Tensor:
    """Sinusoidal embedding of (possibly fractional) diffusion timesteps."""
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, device=timesteps.device) / half)  # expect: DTL001
    args = timesteps[:, None] * freqs[None, :]
    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        emb = torch.cat([emb, torch.zeros_like(emb[:, :1])], dim=-1)  # lookalike: *_like follows emb
    return emb


class TimestepEmbedder(nn.Module):
    def __init__(self, hidden: int = 32, freq_dim: int = 16):
        super().__init__()
        self.freq_dim = freq_dim
        self.mlp = nn.Sequential(nn.Linear(freq_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        t_freq = timestep_embedding(t, self.freq_dim)
        return self.mlp(t_freq)


def example():
    torch.manual_seed(0)
    model = TimestepEmbedder().to(torch.bfloat16)
    t = (torch.rand(4) * 999).to(torch.bfloat16)
    return model, (t,)
