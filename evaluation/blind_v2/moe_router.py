"""Top-2 mixture-of-experts router with load-balancing auxiliary loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Top2Router(nn.Module):
    def __init__(self, dim: int = 16, num_experts: int = 4):
        super().__init__()
        self.num_experts = num_experts
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_experts))

    def forward(self, x):
        """x: (T, D) tokens."""
        logits = self.gate(x)
        probs = logits.softmax(dim=-1)
        top = probs.topk(2, dim=-1)
        combine = torch.zeros_like(probs).scatter(1, top.indices, top.values)
        combine = combine / combine.sum(-1, keepdim=True)
        dispatch = F.one_hot(top.indices[:, 0], self.num_experts).to(x.dtype)
        load = dispatch.mean(0)
        importance = probs.mean(0)
        aux_loss = self.num_experts * (load * importance).sum()
        # dense evaluation (small expert count); tokens not routed to an expert get weight 0
        expert_out = torch.stack([expert(x) for expert in self.experts], dim=1)  # (T, E, D)
        out = torch.zeros_like(x)
        out += (combine[..., None] * expert_out).sum(dim=1)
        counts = torch.bincount(top.indices.flatten(), minlength=self.num_experts)
        active_experts = torch.nonzero(counts).squeeze(1)
        return out, aux_loss, active_experts


def example():
    return Top2Router().to(torch.bfloat16), (torch.randn(10, 16, dtype=torch.bfloat16),)
