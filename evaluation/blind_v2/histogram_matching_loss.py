"""Soft (differentiable) histogram matching loss for image-to-image translation."""

import torch
import torch.nn as nn


def soft_histogram(values, bin_centers, bandwidth: float):
    """values: (B, N); bin_centers: (K,) -> normalized histogram (B, K)."""
    diff = values[..., None] - bin_centers
    weights = torch.exp(-0.5 * (diff / bandwidth) ** 2)
    hist = weights.sum(dim=1)
    return hist / hist.sum(dim=-1, keepdim=True).clamp(min=1e-6)


class HistogramMatchingLoss(nn.Module):
    def __init__(self, num_bins: int = 32, tile: int = 4):
        super().__init__()
        self.num_bins = num_bins
        self.tile = tile

    def forward(self, pred, target):
        """pred, target: (B, C, H, W) in [0, 1]; compares per-channel histograms of tiles."""
        B, C = pred.shape[:2]
        tiles = torch.nn.functional.avg_pool2d(pred, self.tile).flatten(0, 1).flatten(1)
        target_tiles = torch.nn.functional.avg_pool2d(target, self.tile).flatten(0, 1).flatten(1)
        h_pred = soft_histogram(tiles, torch.linspace(0, 1, self.num_bins, device=tiles.device), 1.0 / self.num_bins)  # expect: DTL001
        bins = torch.linspace(0, 1, self.num_bins, device=target_tiles.device, dtype=target_tiles.dtype)
        h_target = soft_histogram(target_tiles, bins, 1.0 / self.num_bins)
        return (h_pred.cumsum(-1) - h_target.cumsum(-1)).abs().mean()


def example():
    pred = torch.rand(2, 3, 16, 16, dtype=torch.bfloat16)
    target = torch.rand(2, 3, 16, 16, dtype=torch.bfloat16)
    return HistogramMatchingLoss(), (pred, target)
