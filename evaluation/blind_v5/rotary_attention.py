import torch
import torch.nn.functional as F
from torch import nn


def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


class RotaryAttention(nn.Module):
    """LLaMA attention: rotary embedding applied in complex float32, cast back with type_as."""

    def __init__(self, dim: int = 32, num_heads: int = 4, max_seq: int = 64):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.freqs_cis = precompute_freqs_cis(dim // num_heads, max_seq)  # lookalike: complex table, not registered on purpose

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.num_heads, -1).unbind(2)
        freqs = self.freqs_cis[:N].view(1, N, 1, -1)
        q_ = torch.view_as_complex(q.float().reshape(B, N, self.num_heads, -1, 2))
        k_ = torch.view_as_complex(k.float().reshape(B, N, self.num_heads, -1, 2))
        q = torch.view_as_real(q_ * freqs).flatten(3).type_as(v)
        k = torch.view_as_real(k_ * freqs).flatten(3).type_as(v)
        out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


def example():
    torch.manual_seed(0)
    model = RotaryAttention().to(torch.bfloat16)
    x = torch.randn(2, 12, 32, dtype=torch.bfloat16)
    return model, (x,)
