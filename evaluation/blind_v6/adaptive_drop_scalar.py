"""StyleGAN2-ADA style augmentation probability and scalar tensors that never promote."""
import math

import torch
import torch.nn as nn


class AdaptiveFlip(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.register_buffer("p", torch.ones([]))  # lookalike: 0-dim buffer
        self.strength = nn.Parameter(torch.zeros([]))  # lookalike: 0-dim parameter
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B = x.shape[0]
        flip = torch.rand(B, 1, 1, device=x.device) < self.p * 0.5  # lookalike: comparison with a 0-dim buffer gives a bool
        x = torch.where(flip, x.flip(-1), x)
        scale = torch.tensor(1.0 / math.sqrt(x.shape[-1]))  # lookalike: 0-dim scalar tensor
        temp = torch.tensor(0.07, device=x.device)  # lookalike: 0-dim scalar tensor
        y = self.proj(x) * scale / temp
        return y + self.strength * x


def example():
    m = AdaptiveFlip().to(torch.bfloat16)
    with torch.no_grad():
        m.strength.fill_(0.5)
    return m, (torch.randn(4, 8, 32, dtype=torch.bfloat16),)
