"""Multi-head attention written with the paper's Q/K/V notation."""

import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 32, h: int = 4):
        super().__init__()
        self.h = h
        self.d_k = d_model // h
        self.W_qkv = nn.Linear(d_model, 3 * d_model)
        self.W_o = nn.Linear(d_model, d_model)

    def forward(self, x, key_padding_mask=None):
        B, T, _ = x.shape
        Q, K, V = self.W_qkv(x).view(B, T, 3, self.h, self.d_k).permute(2, 0, 3, 1, 4)
        scores = Q @ K.transpose(-2, -1) / math.sqrt(self.d_k)
        if key_padding_mask is not None:
            scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        P = scores.softmax(dim=-1)
        out = torch.matmul(P, V).transpose(1, 2).reshape(B, T, -1)
        return self.W_o(out)


def example():
    mask = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
    return MultiHeadAttention().to(torch.bfloat16), (torch.randn(2, 5, 32, dtype=torch.bfloat16), mask)
