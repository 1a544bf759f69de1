"""Diffusers-style timestep embedding: float32 sinusoid, cast to the sample dtype before the MLP."""
import math

import torch
import torch.nn as nn


def get_timestep_embedding(timesteps: torch.Tensor, embedding_dim: int, max_period: int = 10000) -> torch.Tensor:
    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(0, half_dim, dtype=torch.float32, device=timesteps.device)  # lookalike: explicit float32
    emb = torch.exp(exponent / half_dim)
    emb = timesteps[:, None].float() * emb[None, :]
    return torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)


class TimestepEmbedding(nn.Module):
    def __init__(self, in_channels: int, time_embed_dim: int):
        super().__init__()
        self.linear_1 = nn.Linear(in_channels, time_embed_dim)
        self.act = nn.SiLU()
        self.linear_2 = nn.Linear(time_embed_dim, time_embed_dim)

    def forward(self, sample: torch.Tensor) -> torch.Tensor:
        return self.linear_2(self.act(self.linear_1(sample)))


class TinyUNetStem(nn.Module):
    def __init__(self, ch: int = 16, temb: int = 32):
        super().__init__()
        self.ch = ch
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.time_embedding = TimestepEmbedding(ch, temb)
        self.time_proj = nn.Linear(temb, ch)

    def forward(self, sample: torch.Tensor, timestep: torch.Tensor) -> torch.Tensor:
        t_emb = get_timestep_embedding(timestep, self.ch)
        t_emb = t_emb.to(dtype=sample.dtype)  # lookalike: cast to the sample dtype before the MLP
        emb = self.time_embedding(t_emb)
        return self.conv_in(sample) + self.time_proj(emb)[:, :, None, None]


def example():
    m = TinyUNetStem().to(torch.bfloat16)
    return m, (torch.randn(2, 4, 8, 8, dtype=torch.bfloat16), torch.tensor([10, 500]))
