import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    """GPT-style causal attention with an additive mask built in the activations' dtype."""

    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        mask = torch.full((N, N), float("-inf"), device=x.device, dtype=x.dtype).triu(1)  # lookalike
        attn = (q @ k.transpose(-2, -1)) * (C // self.heads) ** -0.5 + mask
        out = attn.softmax(dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


def example():
    model = CausalSelfAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 9, 32, dtype=torch.bfloat16),)
