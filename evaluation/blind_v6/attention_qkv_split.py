"""Attention block whose helper splits qkv and builds the additive key-padding bias in one go."""
from typing import Optional

import torch
import torch.nn as nn


def split_heads_with_bias(qkv: torch.Tensor, num_heads: int, key_padding: Optional[torch.Tensor] = None):
    B, N, C3 = qkv.shape
    C = C3 // 3
    q, k, v = qkv.view(B, N, 3, num_heads, C // num_heads).permute(2, 0, 3, 1, 4)
    bias = torch.zeros(B, 1, 1, N, device=qkv.device)  # expect: DTL001
    if key_padding is not None:
        bias = bias.masked_fill(key_padding[:, None, None, :], float("-inf"))
    return q, k, v, bias


class TokenAttention(nn.Module):
    def __init__(self, dim: int = 64, num_heads: int = 4):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, key_padding: Optional[torch.Tensor] = None) -> torch.Tensor:
        B, N, C = x.shape
        q, k, v, bias = split_heads_with_bias(self.qkv(x), self.num_heads, key_padding)
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        attn = attn.softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


def example():
    m = TokenAttention().to(torch.bfloat16)
    x = torch.randn(2, 9, 64, dtype=torch.bfloat16)
    pad = torch.zeros(2, 9, dtype=torch.bool)
    pad[1, -3:] = True
    return m, (x, pad)
