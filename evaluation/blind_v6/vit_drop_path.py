"""Stochastic depth for a ViT encoder block (vit-pytorch / early timm style)."""
import torch
import torch.nn as nn


class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0.1):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.drop_prob == 0.0:
            return x
        keep_prob = 1.0 - self.drop_prob
        keep = torch.rand(x.shape[0], 1, 1, device=x.device) < keep_prob  # lookalike: bool mask from a comparison with a number
        return x.div(keep_prob) * keep.float()  # expect: DTL003


class Block(nn.Module):
    def __init__(self, dim: int = 64, heads: int = 4, drop_path: float = 0.2):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim))
        self.drop_path = DropPath(drop_path)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm1(x)
        x = x + self.drop_path(self.attn(h, h, h, need_weights=False)[0])
        x = x + self.drop_path(self.mlp(self.norm2(x)))
        return x


def example():
    block = Block().to(torch.bfloat16)
    block.train()
    x = torch.randn(4, 10, 64, dtype=torch.bfloat16)
    return block, (x,)
