"""Coordinate MLP with random Fourier features (Tancik et al. 2020)."""

import math

import torch
import torch.nn as nn


class GaussianFourierFeatures(nn.Module):
    def __init__(self, in_dim: int = 2, num_features: int = 32, scale: float = 10.0):
        super().__init__()
        self.B = torch.randn(in_dim, num_features) * scale  # expect: DTL005

    def forward(self, coords):
        proj = 2 * math.pi * coords @ self.B
        return torch.cat([torch.sin(proj), torch.cos(proj)], dim=-1)


class FourierMLP(nn.Module):
    def __init__(self, in_dim: int = 2, out_dim: int = 3, hidden: int = 64):
        super().__init__()
        self.features = GaussianFourierFeatures(in_dim, hidden // 2)
        self.net = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out_dim), nn.Sigmoid())

    def forward(self, coords):
        return self.net(self.features(coords))


def example():
    model = FourierMLP().to(torch.bfloat16)
    coords = torch.rand(2, 100, 2, dtype=torch.bfloat16)
    return model, (coords,)
