import math

import torch
from torch import nn


class SinusoidalTimesteps(nn.Module):
    """diffusers-style Timesteps: no weights, always returns float32 embeddings."""

    def __init__(self, num_channels: int, flip_sin_to_cos: bool = True, shift: float = 1.0) -> None:
        super().__init__()
        self.num_channels = num_channels
        self.flip_sin_to_cos = flip_sin_to_cos
        self.shift = shift

    def forward(self, timesteps: torch.Tensor) -> torch.Tensor:
        half = self.num_channels // 2
        exponent = -math.log(10000) * torch.arange(half, dtype=torch.float32, device=timesteps.device)
        emb = timesteps[:, None].float() * torch.exp(exponent / (half - self.shift))[None, :]
        emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=-1)
        if self.flip_sin_to_cos:
            emb = torch.cat([emb[:, half:], emb[:, :half]], dim=-1)
        return emb


class TimestepMLP(nn.Module):
    def __init__(self, in_channels: int, time_embed_dim: int) -> None:
        super().__init__()
        self.linear_1 = nn.Linear(in_channels, time_embed_dim)
        self.act = nn.SiLU()
        self.linear_2 = nn.Linear(time_embed_dim, time_embed_dim)

    def forward(self, sample: torch.Tensor) -> torch.Tensor:
        return self.linear_2(self.act(self.linear_1(sample)))


class TinyConditionedUNet(nn.Module):
    def __init__(self, channels: int = 16, block_out: int = 32) -> None:
        super().__init__()
        self.conv_in = nn.Conv2d(channels, block_out, 3, padding=1)
        self.time_proj = SinusoidalTimesteps(block_out)
        self.time_embedding = TimestepMLP(block_out, block_out * 4)
        self.emb_proj = nn.Linear(block_out * 4, block_out)
        self.conv_out = nn.Conv2d(block_out, channels, 3, padding=1)

    def forward(self, sample: torch.Tensor, timestep: torch.Tensor) -> torch.Tensor:
        emb = self.time_embedding(self.time_proj(timestep))  # expect: DTL003
        h = self.conv_in(sample) + self.emb_proj(emb)[:, :, None, None]
        return self.conv_out(torch.nn.functional.silu(h))


def example():
    torch.manual_seed(0)
    model = TinyConditionedUNet().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 8, 8, dtype=torch.bfloat16), torch.tensor([10, 500]))
