"""Attention whose score/softmax computation is deliberately kept in float32."""

import torch
import torch.nn as nn


class StableAttention(nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.to_qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        with torch.autocast(device_type="cpu", enabled=False):
            sim = torch.matmul(q.float(), k.float().transpose(-1, -2)) * self.scale
            attn = sim.softmax(dim=-1)
            out = attn @ v.float()
        out = out.to(x.dtype).transpose(1, 2).reshape(B, N, C)
        return self.to_out(out)


def example():
    return StableAttention().to(torch.bfloat16), (torch.randn(2, 6, 32, dtype=torch.bfloat16),)
