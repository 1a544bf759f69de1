"""Velocity network for rectified-flow training with a continuous-time embedding."""

import math

import torch
import torch.nn as nn


def timestep_embedding(t, dim: int, max_period: float = 10000.0):
    """Sinusoidal embedding of continuous times t in [0, 1]; t: (B,)."""
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, device=t.device) / half)  # expect: DTL001
    args = t[:, None] * 1000.0 * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class VelocityMLP(nn.Module):
    def __init__(self, data_dim: int = 16, hidden: int = 64, t_dim: int = 32):
        super().__init__()
        self.t_dim = t_dim
        self.t_proj = nn.Sequential(nn.Linear(t_dim, hidden), nn.SiLU())
        self.net = nn.Sequential(nn.Linear(data_dim + hidden, hidden), nn.SiLU(), nn.Linear(hidden, data_dim))

    def forward(self, x_t, t):
        emb = self.t_proj(timestep_embedding(t, self.t_dim))
        return self.net(torch.cat([x_t, emb], dim=-1))


def training_loss(model, x0, noise, t):
    x_t = (1.0 - t[:, None]) * x0 + t[:, None] * noise
    target = noise - x0
    return (model(x_t, t) - target).pow(2).mean()


def example():
    model = VelocityMLP().to(torch.bfloat16)
    x0 = torch.randn(4, 16, dtype=torch.bfloat16)
    noise = torch.randn(4, 16, dtype=torch.bfloat16)
    t = torch.rand(4, dtype=torch.bfloat16)
    return training_loss, (model, x0, noise, t)
