import torch
import torch.nn.functional as F
from torch import nn


class TimestepResBlock(nn.Module):
    """ADM-style residual block: a projected timestep embedding gives a scale and a shift."""

    def __init__(self, channels: int = 32, emb_dim: int = 64):
        super().__init__()
        self.norm1 = nn.GroupNorm(8, channels)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.emb_proj = nn.Linear(emb_dim, 2 * channels)
        self.norm2 = nn.GroupNorm(8, channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, t_emb):
        h = self.conv1(F.silu(self.norm1(x)))
        emb = self.emb_proj(F.silu(t_emb).float())  # expect: DTL003
        scale, shift = emb[:, :, None, None].chunk(2, dim=1)
        h = self.norm2(h) * (1 + scale) + shift
        h = self.conv2(F.silu(h))
        return x + h


def example():
    torch.manual_seed(0)
    model = TimestepResBlock().to(torch.bfloat16)
    x = torch.randn(2, 32, 8, 8, dtype=torch.bfloat16)
    t_emb = torch.randn(2, 64, dtype=torch.bfloat16)
    return model, (x, t_emb)
