"""Guided-diffusion UNet residual block with timestep conditioning and float32 group norms."""
import torch
import torch.nn as nn


class GroupNorm32(nn.GroupNorm):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return super().forward(x.float()).type(x.dtype)  # expect: DTL003


def normalization(channels: int) -> nn.Module:
    return GroupNorm32(8, channels)


class ResBlock(nn.Module):
    def __init__(self, channels: int = 32, emb_channels: int = 64, out_channels: int = 32):
        super().__init__()
        self.in_layers = nn.Sequential(normalization(channels), nn.SiLU(), nn.Conv2d(channels, out_channels, 3, padding=1))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_channels, 2 * out_channels))
        self.out_norm = normalization(out_channels)
        self.out_rest = nn.Sequential(nn.SiLU(), nn.Conv2d(out_channels, out_channels, 3, padding=1))

    def forward(self, x: torch.Tensor, emb: torch.Tensor) -> torch.Tensor:
        h = self.in_layers(x)
        emb_out = self.emb_layers(emb).type(h.dtype)
        while len(emb_out.shape) < len(h.shape):
            emb_out = emb_out[..., None]
        scale, shift = torch.chunk(emb_out, 2, dim=1)
        h = self.out_norm(h) * (1 + scale) + shift
        return x + self.out_rest(h)


def example():
    block = ResBlock().to(torch.bfloat16)
    return block, (torch.randn(2, 32, 8, 8, dtype=torch.bfloat16), torch.randn(2, 64, dtype=torch.bfloat16))
