"""Residual block with stochastic depth and token dropout."""

import torch
import torch.nn as nn


class StochasticDepthBlock(nn.Module):
    def __init__(self, dim: int = 16, drop_prob: float = 0.2, token_drop: float = 0.1):
        super().__init__()
        self.drop_prob = drop_prob
        self.token_drop = token_drop
        self.body = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())

    def forward(self, x):
        out = self.body(x)
        if self.training and self.drop_prob > 0:
            keep_prob = 1.0 - self.drop_prob
            keep = torch.rand(x.shape[0], 1, 1, device=x.device) < keep_prob
            out = out * keep / keep_prob
            token_keep = x.new_empty(x.shape[:2]).bernoulli_(1.0 - self.token_drop)
            out = out * token_keep[..., None]
        return x + out


def example():
    return StochasticDepthBlock().to(torch.bfloat16).train(), (torch.randn(4, 6, 16, dtype=torch.bfloat16),)
