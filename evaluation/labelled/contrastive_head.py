import math

import torch
import torch.nn as nn


class ContrastiveHead(nn.Module):
    """InfoNCE between two views; the scalars are 0-dim tensors."""

    def __init__(self, dim: int, temperature: float = 0.07):
        super().__init__()
        self.embed = nn.Linear(dim, 128)
        self.temperature = temperature

    def forward(self, a, b):
        za = nn.functional.normalize(self.embed(a), dim=-1)
        zb = nn.functional.normalize(self.embed(b), dim=-1)
        tau = torch.tensor(self.temperature, device=a.device)  # lookalike: 0-dim scalar tensor
        logits = za @ zb.T / tau
        eps = torch.tensor(1e-6, device=a.device)  # lookalike: 0-dim scalar tensor
        logits = logits - torch.log(torch.exp(logits).sum(dim=-1, keepdim=True) + eps)
        scale = torch.as_tensor(math.sqrt(za.shape[-1]), device=a.device)  # lookalike: 0-dim scalar tensor
        return -(logits.diagonal() * scale).mean()
