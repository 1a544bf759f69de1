"""Stochastic depth (drop path) for residual branches."""

import torch
import torch.nn as nn


def drop_path(x, drop_prob: float = 0.0, training: bool = False):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = keep_prob + torch.rand(shape, device=x.device)  # expect: DTL001
    random_tensor.floor_()
    return x.div(keep_prob) * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob: float = 0.1):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)


class ResidualMLP(nn.Module):
    def __init__(self, dim: int = 16, drop_prob: float = 0.2):
        super().__init__()
        self.fc = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
        self.drop_path = DropPath(drop_prob)

    def forward(self, x):
        return x + self.drop_path(self.fc(x))


def example():
    model = ResidualMLP().to(torch.bfloat16).train()
    return model, (torch.randn(4, 5, 16, dtype=torch.bfloat16),)
