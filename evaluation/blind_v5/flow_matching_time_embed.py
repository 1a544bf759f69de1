import math

import torch
from torch import nn


class FlowMatchingTimeEmbed(nn.Module):
    """Sinusoidal embedding of a continuous time t in [0, 1] (rectified flow), then an MLP."""

    def __init__(self, dim: int = 64, hidden: int = 128):
        super().__init__()
        self.dim = dim
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))

    def forward(self, t):
        half = self.dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, device=t.device) / half)  # expect: DTL001
        args = t[:, None] * 1000.0 * freqs[None]
        emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        return self.mlp(emb)


def example():
    torch.manual_seed(0)
    model = FlowMatchingTimeEmbed().to(torch.bfloat16)
    t = torch.rand(4).to(torch.bfloat16)
    return model, (t,)
