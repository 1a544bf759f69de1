import torch
import torch.nn as nn


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat([-x2, x1], dim=-1)


class RotaryEmbedding(nn.Module):
    def __init__(self, dim: int, base: float = 10000.0):
        super().__init__()
        inv_freq = 1.0 / base ** (torch.arange(0, dim, 2).float() / dim)  # lookalike: __init__ takes no tensor
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, q, k):
        L = q.shape[-2]
        t = torch.arange(L, device=q.device, dtype=self.inv_freq.dtype)  # lookalike: dtype given
        freqs = torch.outer(t, self.inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        cos, sin = emb.cos().to(q.dtype), emb.sin().to(q.dtype)  # lookalike: cast before meeting q/k
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
