import math

import torch
from torch import nn


class PositionalEncoding(nn.Module):
    def __init__(self, n_freqs: int = 6, include_input: bool = True):
        super().__init__()
        self.include_input = include_input
        self.freq_bands = 2.0 ** torch.linspace(0.0, n_freqs - 1, n_freqs)  # expect: DTL005

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xb = x[..., None] * self.freq_bands * math.pi
        enc = torch.cat([torch.sin(xb), torch.cos(xb)], dim=-1).flatten(-2)
        return torch.cat([x, enc], dim=-1) if self.include_input else enc


class TinyNeRF(nn.Module):
    def __init__(self, n_freqs: int = 6, hidden: int = 32):
        super().__init__()
        self.enc = PositionalEncoding(n_freqs)
        self.mlp = nn.Sequential(nn.Linear(3 + 3 * 2 * n_freqs, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, pts: torch.Tensor) -> torch.Tensor:
        return self.mlp(self.enc(pts))


def example():
    torch.manual_seed(0)
    model = TinyNeRF().to(torch.bfloat16)
    pts = torch.rand(64, 3).to(torch.bfloat16) * 2 - 1
    return model, (pts,)
