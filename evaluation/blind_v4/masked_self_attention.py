import torch
import torch.nn as nn


def split_heads_with_bias(qkv, num_heads: int, key_padding_mask):
    B, N, _ = qkv.shape
    q, k, v = qkv.reshape(B, N, 3, num_heads, -1).permute(2, 0, 3, 1, 4).unbind(0)
    bias = torch.zeros(B, 1, 1, N, device=qkv.device)  # expect: DTL001
    bias = bias.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
    return q, k, v, bias


class MaskedSelfAttention(nn.Module):
    def __init__(self, dim: int = 32, num_heads: int = 4):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, key_padding_mask):
        B, N, C = x.shape
        q, k, v, bias = split_heads_with_bias(self.qkv(x), self.num_heads, key_padding_mask)
        attn = (q @ k.transpose(-2, -1)) * self.scale + bias
        out = attn.softmax(dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


def example():
    model = MaskedSelfAttention().to(torch.bfloat16)
    x = torch.randn(2, 10, 32, dtype=torch.bfloat16)
    key_padding_mask = torch.arange(10)[None, :] >= torch.tensor([[10], [7]])
    return model, (x, key_padding_mask)
