import torch
from torch import nn


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class RotaryAttention(nn.Module):
    """GPT-NeoX-style rotary attention with the cos/sin tables cached at construction."""

    def __init__(self, dim: int = 32, num_heads: int = 4, max_seq: int = 64, base: float = 10000.0) -> None:
        super().__init__()
        self.h = num_heads
        hd = dim // num_heads
        inv_freq = 1.0 / (base ** (torch.arange(0, hd, 2).float() / hd))
        freqs = torch.einsum("i,j->ij", torch.arange(max_seq).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.cos_cached = emb.cos()[None, None]  # expect: DTL005
        self.sin_cached = emb.sin()[None, None]  # expect: DTL005
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        cos, sin = self.cos_cached[:, :, :T], self.sin_cached[:, :, :T]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(out.transpose(1, 2).reshape(B, T, C))


def example():
    torch.manual_seed(0)
    model = RotaryAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 10, 32, dtype=torch.bfloat16),)
