import torch
from torch import nn


def split_heads(qkv: torch.Tensor, num_heads: int):
    """(B, N, 3C) -> q, k, v as (B, h, N, C/h), plus an additive key-padding bias."""
    B, N, C3 = qkv.shape
    q, k, v = qkv.view(B, N, 3, num_heads, C3 // (3 * num_heads)).permute(2, 0, 3, 1, 4)
    bias = torch.zeros(B, 1, 1, N, device=qkv.device)  # expect: DTL001
    return q, k, v, bias


class PairBiasAttention(nn.Module):
    """Token attention with a learned pair bias (AlphaFold/Evoformer flavoured row attention)."""

    def __init__(self, dim: int = 32, num_heads: int = 4) -> None:
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.pair = nn.Linear(dim, num_heads)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, pair: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        q, k, v, bias = split_heads(self.qkv(x), self.num_heads)
        bias = bias.masked_fill(pad[:, None, None, :], float("-inf"))
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias + self.pair(pair).permute(0, 3, 1, 2)
        out = attn.softmax(dim=-1) @ v
        return self.out(out.transpose(1, 2).reshape(B, N, C))


def example():
    torch.manual_seed(0)
    model = PairBiasAttention().to(torch.bfloat16)
    x = torch.randn(2, 6, 32, dtype=torch.bfloat16)
    pair = torch.randn(2, 6, 6, 32, dtype=torch.bfloat16)
    pad = torch.zeros(2, 6, dtype=torch.bool)
    pad[1, -2:] = True
    return model, (x, pair, pad)
