import torch
from torch import nn


def make_band_bias(n: int, window: int, **kwargs):
    """Additive attention bias: 0 inside a band of +-window tokens, -inf outside."""
    bias = torch.full((n, n), float("-inf"), **kwargs)  # lookalike: dtype may come through **kwargs
    idx = torch.arange(n)
    near = (idx[:, None] - idx[None, :]).abs() <= window
    return bias.masked_fill(near.to(bias.device), 0.0)


class LocalWindowAttention(nn.Module):
    """Longformer-like banded self-attention with a learned per-channel query scale."""

    def __init__(self, dim: int = 32, window: int = 2):
        super().__init__()
        self.window = window
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        opts = dict(device=x.device, dtype=x.dtype)
        scale = torch.ones(C, **opts) * C ** -0.5  # lookalike: options dict carries the dtype
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = (q * scale) @ k.transpose(1, 2) + make_band_bias(N, self.window, **opts)
        return self.proj(scores.softmax(dim=-1) @ v)


def example():
    torch.manual_seed(0)
    model = LocalWindowAttention().to(torch.bfloat16)
    x = torch.randn(2, 10, 32, dtype=torch.bfloat16)
    return model, (x,)
