"""Normalization layers with tensor-valued epsilons and clamps."""

import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        eps = torch.tensor(self.eps, device=x.device)
        rms = torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        return self.weight * (x / rms)


class L2NormWithTemperature(nn.Module):
    def __init__(self, temperature: float = 0.5):
        super().__init__()
        self.temperature = temperature

    def forward(self, x):
        t = torch.tensor(self.temperature)
        norm = x.norm(dim=-1, keepdim=True)
        norm = torch.where(norm > 0, norm, torch.tensor(1.0, device=x.device))
        return x / norm / t


class NormStack(nn.Module):
    def __init__(self, dim: int = 16):
        super().__init__()
        self.rms = RMSNorm(dim)
        self.l2 = L2NormWithTemperature()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return self.l2(self.fc(self.rms(x))).clamp(max=torch.tensor(10.0))


def example():
    return NormStack().to(torch.bfloat16), (torch.randn(3, 16, dtype=torch.bfloat16),)
