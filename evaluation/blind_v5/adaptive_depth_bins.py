import torch
import torch.nn.functional as F
from torch import nn


def soft_bin_assign(values, centers, temperature: float = 0.5):
    """Soft assignment of each value (B, N) to the bin centres (K,)."""
    return torch.softmax(-(values.unsqueeze(-1) - centers).abs() / temperature, dim=-1)


class AdaptiveDepthBins(nn.Module):
    """AdaBins-like head: a global descriptor from the soft histogram of predicted depths."""

    def __init__(self, in_channels: int = 16, n_bins: int = 8, min_depth: float = 0.5, max_depth: float = 10.0):
        super().__init__()
        self.n_bins, self.min_depth, self.max_depth = n_bins, min_depth, max_depth
        self.depth_head = nn.Conv2d(in_channels, 1, 3, padding=1)
        self.bin_mlp = nn.Sequential(nn.Linear(n_bins, 32), nn.ReLU(), nn.Linear(32, n_bins))

    def forward(self, feats):
        depth = F.softplus(self.depth_head(feats)).flatten(1)
        assign = soft_bin_assign(
            depth,
            torch.linspace(self.min_depth, self.max_depth, self.n_bins, device=depth.device, dtype=depth.dtype),  # lookalike: dtype given
        )
        hist = assign.mean(dim=1)
        return self.bin_mlp(hist).softmax(dim=-1), assign


def example():
    torch.manual_seed(0)
    model = AdaptiveDepthBins().to(torch.bfloat16)
    feats = torch.randn(2, 16, 8, 8, dtype=torch.bfloat16)
    return model, (feats,)
