import math

import torch
from torch import nn


class CachedSinusoidPositions(nn.Module):
    """Adds sinusoidal positions, rebuilt lazily in the input's dtype and kept in a cache."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.dim = dim
        self._cache = torch.empty(0)  # lookalike: empty placeholder, replaced before it is read

    def _build(self, n: int, ref):
        pos = torch.arange(n, device=ref.device, dtype=ref.dtype)[:, None]
        div = torch.exp(torch.arange(0, self.dim, 2, device=ref.device, dtype=ref.dtype) * (-math.log(10000.0) / self.dim))
        pe = torch.zeros(n, self.dim, device=ref.device, dtype=ref.dtype)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        return pe

    def forward(self, x):
        n = x.shape[1]
        if self._cache.shape[0] < n or self._cache.dtype != x.dtype:
            self._cache = self._build(n, x)
        return x + self._cache[:n]


def example():
    torch.manual_seed(0)
    model = CachedSinusoidPositions().to(torch.bfloat16)
    x = torch.randn(2, 20, 32, dtype=torch.bfloat16)
    return model, (x,)
