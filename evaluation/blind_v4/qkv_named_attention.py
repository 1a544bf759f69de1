import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """Textbook attention with capital Q, K, V names (K is an attention key, not intrinsics)."""

    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.W_q = nn.Linear(dim, dim)
        self.W_k = nn.Linear(dim, dim)
        self.W_v = nn.Linear(dim, dim)
        self.W_o = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        Q = self.W_q(x).view(B, N, self.heads, -1).transpose(1, 2)
        K = self.W_k(x).view(B, N, self.heads, -1).transpose(1, 2)
        V = self.W_v(x).view(B, N, self.heads, -1).transpose(1, 2)
        A = torch.softmax(Q @ K.transpose(-2, -1) / (C // self.heads) ** 0.5, dim=-1)  # lookalike
        return self.W_o((A @ V).transpose(1, 2).reshape(B, N, C))


def example():
    model = MultiHeadAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 10, 32, dtype=torch.bfloat16),)
