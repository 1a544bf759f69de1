import math

import torch
from torch import nn


def get_timestep_embedding(timesteps: torch.Tensor, embedding_dim: int, max_period: int = 10000) -> torch.Tensor:
    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(half_dim, dtype=torch.float32, device=timesteps.device) / half_dim
    emb = timesteps[:, None].float() * torch.exp(exponent)[None, :]
    return torch.cat([torch.cos(emb), torch.sin(emb)], dim=-1)


class Timesteps(nn.Module):
    def __init__(self, num_channels: int) -> None:
        super().__init__()
        self.num_channels = num_channels

    def forward(self, timesteps: torch.Tensor) -> torch.Tensor:
        return get_timestep_embedding(timesteps, self.num_channels)


class ConditionedDownBlock(nn.Module):
    """diffusers UNet2DConditionModel time path: the float32 embedding is cast to the sample dtype."""

    def __init__(self, in_channels: int = 8, block_out: int = 16) -> None:
        super().__init__()
        self.time_proj = Timesteps(block_out)
        self.time_embedding = nn.Sequential(nn.Linear(block_out, 4 * block_out), nn.SiLU(), nn.Linear(4 * block_out, 4 * block_out))
        self.conv_in = nn.Conv2d(in_channels, block_out, 3, padding=1)
        self.time_emb_proj = nn.Linear(4 * block_out, block_out)
        self.down = nn.Conv2d(block_out, block_out, 3, stride=2, padding=1)

    def forward(self, sample: torch.Tensor, timestep: torch.Tensor) -> torch.Tensor:
        t_emb = self.time_proj(timestep)
        # timesteps has no weights and always returns float32; time_embedding may run in bf16
        t_emb = t_emb.to(dtype=sample.dtype)  # lookalike: caller casts back
        emb = self.time_embedding(t_emb)
        h = self.conv_in(sample) + self.time_emb_proj(nn.functional.silu(emb))[:, :, None, None]
        return self.down(h)


def example():
    torch.manual_seed(0)
    model = ConditionedDownBlock().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 8, 8, dtype=torch.bfloat16), torch.tensor([1, 999]))
