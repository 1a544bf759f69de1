import math

import torch
import torch.nn as nn


def timestep_embedding(timesteps, dim: int, max_period: int = 10000):
    half = dim // 2
    exponent = -math.log(max_period) * torch.arange(half, dtype=torch.float32, device=timesteps.device) / half
    args = timesteps[:, None].float() * torch.exp(exponent)[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TimeEmbeddingMLP(nn.Module):
    """Diffusers-style sinusoidal embedding computed in float32, cast before the MLP."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.SiLU(), nn.Linear(dim, dim))

    def forward(self, x, timesteps):
        emb = timestep_embedding(timesteps, self.dim).to(x.dtype)  # lookalike: cast before meeting x
        emb = self.mlp(emb)
        return x + emb[:, :, None, None]


def example():
    model = TimeEmbeddingMLP().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 4, 4, dtype=torch.bfloat16), torch.randint(0, 1000, (2,)))
