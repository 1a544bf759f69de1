import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, dim: int, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, lengths):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) * (D // self.heads) ** -0.5  # lookalike: two activations
        causal = torch.full((L, L), float("-inf"), device=x.device).triu(1)  # expect: DTL001
        scores = scores + causal
        pad = torch.arange(L, device=x.device)[None, :] >= lengths[:, None]  # lookalike: integer arange as mask
        scores = scores.masked_fill(pad[:, None, None, :], float("-inf"))
        out = scores.softmax(dim=-1) @ v
        return self.out(out.transpose(1, 2).reshape(B, L, D))
