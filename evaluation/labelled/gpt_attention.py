import math

import torch
import torch.nn as nn


class GPTAttention(nn.Module):
    def __init__(self, dim: int, heads: int, block_size: int = 1024):
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(dim, 3 * dim)
        self.c_out = nn.Linear(dim, dim)
        self.causal = torch.tril(torch.ones(block_size, block_size, dtype=torch.bool))  # expect: DTL005

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        v = v.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = torch.where(self.causal[:T, :T], att, torch.finfo(att.dtype).min)
        y = att.softmax(dim=-1) @ v
        return self.c_out(y.transpose(1, 2).reshape(B, T, C))
