import torch
from torch import nn


class GroupNorm32(nn.GroupNorm):
    """guided-diffusion's normalization: statistics in float32."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return super().forward(x.float())  # expect: DTL003


class ResBlock(nn.Module):
    def __init__(self, channels: int = 32) -> None:
        super().__init__()
        self.norm1 = GroupNorm32(8, channels)
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.norm2 = GroupNorm32(8, channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.conv1(torch.nn.functional.silu(self.norm1(x)).to(x.dtype))
        h = self.conv2(torch.nn.functional.silu(self.norm2(h)).to(x.dtype))
        return x + h


def example():
    torch.manual_seed(0)
    model = ResBlock().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 8, 8, dtype=torch.bfloat16),)
