"""GPT attention with a lower-triangular causal mask."""

import math

import torch
import torch.nn as nn


class CausalAttention(nn.Module):
    def __init__(self, dim: int = 32, n_head: int = 2, block_size: int = 16):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_proj = nn.Linear(dim, dim)
        self.register_buffer("bias", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x, extra_causal: bool = False):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, -1).transpose(1, 2) for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        if extra_causal:
            causal = torch.tril(torch.ones(T, T, device=x.device)) == 0
            att = att.masked_fill(causal, float("-inf"))
        y = att.softmax(dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).reshape(B, T, C))


def example():
    return CausalAttention().to(torch.bfloat16), (torch.randn(2, 7, 32, dtype=torch.bfloat16), True)
