"""Textbook attention with matrix-style names: Q, K, V and P are activations, not cameras."""
import math

import torch
import torch.nn as nn


class MatrixAttention(nn.Module):
    def __init__(self, d_model: int = 32, d_k: int = 16):
        super().__init__()
        self.W_q = nn.Linear(d_model, d_k, bias=False)
        self.W_k = nn.Linear(d_model, d_k, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.d_k = d_k

    def forward(self, X: torch.Tensor, memory: torch.Tensor) -> torch.Tensor:
        Q = self.W_q(X)
        K = self.W_k(memory)  # lookalike: attention keys named K
        V = self.W_v(memory)
        P = torch.softmax(Q @ K.transpose(-2, -1) / math.sqrt(self.d_k), dim=-1)  # lookalike: P from activations
        return P @ V


def example():
    m = MatrixAttention().to(torch.bfloat16)
    return m, (torch.randn(2, 5, 32, dtype=torch.bfloat16), torch.randn(2, 7, 32, dtype=torch.bfloat16))
