"""Transformer encoder layer with a key-padding mask applied as bool fill and as a cast bias."""
import torch
import torch.nn as nn


class MaskedSelfAttention(nn.Module):
    def __init__(self, dim: int = 48, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / (C // self.heads) ** 0.5
        scores = scores.masked_fill(padding_mask[:, None, None, :], float("-inf"))  # lookalike: bool mask
        attn = scores.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)
        keep = (~padding_mask).to(x.dtype)[..., None]  # lookalike: mask cast with .to(x.dtype)
        return self.out(out) * keep


class EncoderLayer(nn.Module):
    def __init__(self, dim: int = 48):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = MaskedSelfAttention(dim)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm(x), padding_mask)
        valid = torch.where(padding_mask[..., None], torch.zeros_like(x), x)  # lookalike: where with a *_like factory
        return x + self.ff(valid)


def example():
    m = EncoderLayer().to(torch.bfloat16)
    pad = torch.zeros(2, 7, dtype=torch.bool)
    pad[0, 5:] = True
    return m, (torch.randn(2, 7, 48, dtype=torch.bfloat16), pad)
