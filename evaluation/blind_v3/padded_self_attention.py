import torch
from torch import nn


def attention_with_padding(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                           key_padding_mask: torch.Tensor) -> torch.Tensor:
    """Reference attention; key_padding_mask is True where a key is padding."""
    B, L, S = q.size(0), q.size(-2), k.size(-2)
    scale = q.size(-1) ** -0.5
    attn_bias = torch.zeros(B, 1, L, S, device=q.device)  # expect: DTL001
    attn_bias.masked_fill_(key_padding_mask[:, None, None, :], float("-inf"))  # lookalike: bool padding mask
    scores = q @ k.transpose(-2, -1) * scale
    scores = scores + attn_bias
    return scores.softmax(dim=-1) @ v


class PaddedSelfAttention(nn.Module):
    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, key_padding_mask: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        out = attention_with_padding(q, k, v, key_padding_mask)
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


def example():
    torch.manual_seed(0)
    model = PaddedSelfAttention().to(torch.bfloat16)
    x = torch.randn(2, 6, 32).to(torch.bfloat16)
    pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    return model, (x, pad)
