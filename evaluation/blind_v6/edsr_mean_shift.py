"""EDSR-style super-resolution: RGB mean subtracted and added back around a residual body."""
import torch
import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, n_feats: int, res_scale: float = 0.1):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(n_feats, n_feats, 3, padding=1), nn.ReLU(True), nn.Conv2d(n_feats, n_feats, 3, padding=1))
        self.res_scale = res_scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.body(x) * self.res_scale


class EDSR(nn.Module):
    def __init__(self, n_feats: int = 16, n_blocks: int = 2, scale: int = 2, rgb_mean=(0.4488, 0.4371, 0.4040), img_range: float = 255.0):
        super().__init__()
        self.img_range = img_range
        self.mean = torch.Tensor(rgb_mean).view(1, 3, 1, 1)
        self.conv_first = nn.Conv2d(3, n_feats, 3, padding=1)
        self.body = nn.Sequential(*[ResBlock(n_feats) for _ in range(n_blocks)])
        self.upsample = nn.Sequential(nn.Conv2d(n_feats, n_feats * scale * scale, 3, padding=1), nn.PixelShuffle(scale))
        self.conv_last = nn.Conv2d(n_feats, 3, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.mean = self.mean.type_as(x)  # lookalike: attribute cast before use
        x = (x - self.mean) * self.img_range
        x = self.conv_first(x)
        res = self.body(x) + x
        x = self.conv_last(self.upsample(res))
        return x / self.img_range + self.mean


def example():
    m = EDSR().to(torch.bfloat16)
    return m, (torch.rand(1, 3, 8, 8, dtype=torch.bfloat16),)
