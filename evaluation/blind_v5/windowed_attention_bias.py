import torch
from torch import nn


def split_heads(qkv, num_heads: int, pad_tokens: int):
    B, N, C3 = qkv.shape
    q, k, v = qkv.view(B, N, 3, num_heads, C3 // (3 * num_heads)).permute(2, 0, 3, 1, 4)
    bias = torch.zeros(B, 1, 1, N, device=qkv.device)  # expect: DTL001
    if pad_tokens > 0:
        bias[..., N - pad_tokens:] = -1e4
    return q, k, v, bias


class PaddedWindowAttention(nn.Module):
    """Window attention where the last window is padded; padded keys are masked with a bias."""

    def __init__(self, dim: int = 32, num_heads: int = 4):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, pad_tokens: int = 3):
        B, N, C = x.shape
        q, k, v, bias = split_heads(self.qkv(x), self.num_heads, pad_tokens)
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        attn = attn.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(out)


def example():
    torch.manual_seed(0)
    model = PaddedWindowAttention().to(torch.bfloat16)
    x = torch.randn(2, 16, 32, dtype=torch.bfloat16)
    return model, (x,)
