import math

import torch
from torch import nn


class TimestepEmbedder(nn.Module):
    """DiT's TimestepEmbedder with the frequency embedding cast to the MLP's weight dtype."""

    def __init__(self, hidden_size: int = 32, frequency_embedding_size: int = 32) -> None:
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(frequency_embedding_size, hidden_size, bias=True), nn.SiLU(), nn.Linear(hidden_size, hidden_size, bias=True)
        )
        self.frequency_embedding_size = frequency_embedding_size

    @staticmethod
    def timestep_embedding(t: torch.Tensor, dim: int, max_period: int = 10000) -> torch.Tensor:
        half = dim // 2
        freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(device=t.device)
        args = t[:, None].float() * freqs[None]
        return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        t_freq = self.timestep_embedding(t, self.frequency_embedding_size)
        return self.mlp(t_freq.to(self.mlp[0].weight.dtype))  # lookalike: cast to the layer's dtype


class AdaLNModulation(nn.Module):
    def __init__(self, hidden_size: int = 32) -> None:
        super().__init__()
        self.t_embedder = TimestepEmbedder(hidden_size)
        self.adaLN = nn.Sequential(nn.SiLU(), nn.Linear(hidden_size, 2 * hidden_size))
        self.norm = nn.LayerNorm(hidden_size, elementwise_affine=False, eps=1e-6)

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        shift, scale = self.adaLN(self.t_embedder(t)).chunk(2, dim=1)
        return self.norm(x) * (1 + scale[:, None]) + shift[:, None]


def example():
    torch.manual_seed(0)
    model = AdaLNModulation().to(torch.bfloat16)
    return model, (torch.randn(2, 6, 32, dtype=torch.bfloat16), torch.tensor([5, 250]))
