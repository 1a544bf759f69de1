"""Cross-attention with a float32 softmax for numerical stability (latent-diffusion transformer block)."""
from typing import Optional

import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, query_dim: int = 64, context_dim: Optional[int] = 32, heads: int = 4, dim_head: int = 16):
        super().__init__()
        inner = heads * dim_head
        context_dim = context_dim or query_dim
        self.heads, self.scale = heads, dim_head**-0.5
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_k = nn.Linear(context_dim, inner, bias=False)
        self.to_v = nn.Linear(context_dim, inner, bias=False)
        self.to_out = nn.Linear(inner, query_dim)

    def forward(self, x: torch.Tensor, context: Optional[torch.Tensor] = None) -> torch.Tensor:
        context = x if context is None else context
        B, N, _ = x.shape
        h = self.heads
        q = self.to_q(x).view(B, N, h, -1).transpose(1, 2)
        k = self.to_k(context).view(B, context.shape[1], h, -1).transpose(1, 2)
        v = self.to_v(context).view(B, context.shape[1], h, -1).transpose(1, 2)
        sim = (q @ k.transpose(-1, -2)) * self.scale
        attn = sim.softmax(dim=-1, dtype=torch.float32)  # expect: DTL003
        out = attn @ v
        return self.to_out(out.transpose(1, 2).reshape(B, N, -1))


def example():
    m = CrossAttention().to(torch.bfloat16)
    return m, (torch.randn(2, 10, 64, dtype=torch.bfloat16), torch.randn(2, 7, 32, dtype=torch.bfloat16))
