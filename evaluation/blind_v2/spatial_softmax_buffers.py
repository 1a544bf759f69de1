"""Spatial soft-argmax with registered coordinate buffers."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatialSoftArgmax(nn.Module):
    def __init__(self, height: int = 6, width: int = 6, learnable_temperature: bool = True):
        super().__init__()
        pos_x, pos_y = torch.meshgrid(torch.linspace(-1.0, 1.0, width), torch.linspace(-1.0, 1.0, height), indexing="xy")
        self.register_buffer("pos_x", pos_x.reshape(1, -1))
        self.register_buffer("pos_y", pos_y.reshape(1, -1))
        self.temperature = nn.Parameter(torch.ones(1)) if learnable_temperature else 1.0

    def forward(self, feature):
        B, C, H, W = feature.shape
        attention = F.softmax(feature.reshape(B * C, H * W) / self.temperature, dim=-1)
        ex = (self.pos_x * attention).sum(1)
        ey = (self.pos_y * attention).sum(1)
        return torch.stack([ex, ey], dim=-1).view(B, C * 2)


def example():
    return SpatialSoftArgmax().to(torch.bfloat16), (torch.randn(2, 4, 6, 6, dtype=torch.bfloat16),)
