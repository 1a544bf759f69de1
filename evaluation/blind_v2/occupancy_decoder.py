"""Occupancy network decoder queried on a dense grid (for mesh extraction / supervision)."""

import torch
import torch.nn as nn
from torch import linspace, zeros


class OccupancyDecoder(nn.Module):
    def __init__(self, latent_dim: int = 16, hidden: int = 32, resolution: int = 6):
        super().__init__()
        self.resolution = resolution
        self.net = nn.Sequential(nn.Linear(3 + latent_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, latent, inside_mask):
        """latent: (B, D); inside_mask: (B, R^3) bool mask of cells inside the bounding volume."""
        B, r = latent.shape[0], self.resolution
        axis = linspace(-0.5, 0.5, r, device=latent.device)  # expect: DTL001
        grid = torch.stack(torch.meshgrid(axis, axis, axis, indexing="ij"), dim=-1).view(1, -1, 3)
        grid = grid.expand(B, -1, -1)
        query = torch.cat([grid, latent[:, None].expand(-1, grid.shape[1], -1)], dim=-1)
        logits = self.net(query).squeeze(-1)
        occupancy = zeros(B, r ** 3, device=latent.device)  # expect: DTL001
        occupancy[inside_mask] = logits[inside_mask]
        return occupancy


def example():
    model = OccupancyDecoder().to(torch.bfloat16)
    latent = torch.randn(2, 16, dtype=torch.bfloat16)
    inside = torch.rand(2, 6 ** 3) > 0.3
    return model, (latent, inside)
