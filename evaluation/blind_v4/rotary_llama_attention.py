import torch
import torch.nn as nn


def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: dim // 2].float() / dim))
    t = torch.arange(end)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


class RotaryQK(nn.Module):
    """LLaMA rotary embedding; the complex table is a plain attribute on purpose."""

    def __init__(self, dim: int = 32, heads: int = 4, max_len: int = 64):
        super().__init__()
        self.heads = heads
        self.wq = nn.Linear(dim, dim)
        self.freqs_cis = precompute_freqs_cis(dim // heads, max_len)  # lookalike: complex table

    def forward(self, x):
        B, N, C = x.shape
        xq = self.wq(x).view(B, N, self.heads, -1)
        xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
        freqs = self.freqs_cis[:N].view(1, N, 1, -1)
        xq_out = torch.view_as_real(xq_ * freqs).flatten(3)
        return xq_out.type_as(xq)


def example():
    model = RotaryQK().to(torch.bfloat16)
    return model, (torch.randn(2, 10, 32, dtype=torch.bfloat16),)
