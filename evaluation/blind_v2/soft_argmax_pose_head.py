"""Integral (soft-argmax) 2D pose head on top of backbone heatmaps."""

import torch
import torch.nn as nn


class SoftArgmaxHead(nn.Module):
    def __init__(self, in_channels: int = 16, num_joints: int = 17, beta: float = 10.0):
        super().__init__()
        self.beta = beta
        self.final = nn.Conv2d(in_channels, num_joints, 1)

    def forward(self, feats):
        heatmaps = self.final(feats)
        B, J, H, W = heatmaps.shape
        prob = torch.softmax(self.beta * heatmaps.flatten(2), dim=-1).view(B, J, H, W)
        opts = dict(device=heatmaps.device)
        xs = torch.linspace(0.0, 1.0, W, **opts)  # expect: DTL001
        ys = torch.linspace(0.0, 1.0, H, **opts)  # expect: DTL001
        x = (prob.sum(dim=2) * xs).sum(dim=-1)
        y = (prob.sum(dim=3) * ys).sum(dim=-1)
        peak = heatmaps.flatten(2).argmax(dim=-1)  # integer peak for the coarse estimate
        coarse = torch.stack([peak % W, peak // W], dim=-1)
        return torch.stack([x, y], dim=-1), coarse


def example():
    head = SoftArgmaxHead().to(torch.bfloat16)
    return head, (torch.randn(2, 16, 8, 8, dtype=torch.bfloat16),)
