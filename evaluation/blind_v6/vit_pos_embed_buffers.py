"""ViT embedding layer whose fixed tables are made in __init__ and registered as buffers or parameters."""
import math

import torch
import torch.nn as nn


class PatchEmbedWithPos(nn.Module):
    def __init__(self, img_size: int = 32, patch: int = 8, dim: int = 48):
        super().__init__()
        self.num_patches = (img_size // patch) ** 2
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))  # lookalike: parameter
        pos = torch.arange(self.num_patches + 1).unsqueeze(1)
        div = torch.exp(torch.arange(0, dim, 2) * (-math.log(10000.0) / dim))
        pe = torch.zeros(1, self.num_patches + 1, dim)
        pe[0, :, 0::2] = torch.sin(pos * div)
        pe[0, :, 1::2] = torch.cos(pos * div)
        self.register_buffer("pos_embed", pe, persistent=False)  # lookalike: factory in __init__ registered as a buffer
        self.register_buffer("layer_scale", torch.full((dim,), 0.1))  # lookalike: buffer
        self.norm = nn.LayerNorm(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.proj(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat([cls, x], dim=1) + self.pos_embed
        return self.norm(x) * self.layer_scale


def example():
    m = PatchEmbedWithPos().to(torch.bfloat16)
    return m, (torch.randn(2, 3, 32, 32, dtype=torch.bfloat16),)
