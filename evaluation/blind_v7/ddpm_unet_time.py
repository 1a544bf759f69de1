import math

import torch
from torch import nn


def timestep_embedding(timesteps: torch.Tensor, dim: int, max_period: int = 10000) -> torch.Tensor:
    """Sinusoidal timestep embeddings (guided-diffusion), computed in float32."""
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32, device=timesteps.device) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TimeConditionedBlock(nn.Module):
    """UNet residual block with the timestep MLP of guided/improved diffusion."""

    def __init__(self, channels: int = 32, model_channels: int = 32) -> None:
        super().__init__()
        self.model_channels = model_channels
        self.time_embed = nn.Sequential(
            nn.Linear(model_channels, 4 * model_channels), nn.SiLU(), nn.Linear(4 * model_channels, 4 * model_channels)
        )
        self.in_layers = nn.Sequential(nn.GroupNorm(8, channels), nn.SiLU(), nn.Conv2d(channels, channels, 3, padding=1))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(4 * model_channels, channels))
        self.out_layers = nn.Sequential(nn.GroupNorm(8, channels), nn.SiLU(), nn.Conv2d(channels, channels, 3, padding=1))

    def forward(self, x: torch.Tensor, timesteps: torch.Tensor) -> torch.Tensor:
        emb = self.time_embed(timestep_embedding(timesteps, self.model_channels))  # expect: DTL003
        h = self.in_layers(x)
        h = h + self.emb_layers(emb)[..., None, None]
        return x + self.out_layers(h)


def example():
    torch.manual_seed(0)
    model = TimeConditionedBlock().to(torch.bfloat16)
    x = torch.randn(2, 32, 8, 8, dtype=torch.bfloat16)
    t = torch.randint(0, 1000, (2,))
    return model, (x, t)
