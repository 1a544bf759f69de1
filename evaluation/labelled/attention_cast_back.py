import math

import torch
import torch.nn as nn


class MixedPrecisionAttention(nn.Module):
    """fp32 softmax, then probabilities cast to the value dtype before the second matmul."""

    def __init__(self, dim: int):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)

    def forward(self, x, memory=None):
        ctx = x if memory is None else memory
        q, k, v = self.query(x), self.key(ctx), self.value(ctx)
        scores = (q @ k.transpose(-2, -1)).float() / math.sqrt(q.shape[-1])
        weights = torch.softmax(scores, dim=-1)
        weights = weights.to(v.dtype)  # lookalike: cast to the other operand's dtype
        out = weights @ v
        gate = torch.sigmoid(scores.mean(-1, keepdim=True)).type_as(out)  # lookalike: type_as
        return out * gate
