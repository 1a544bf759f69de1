import numpy as np
import torch
from torch import nn


class DepthDistributionHead(nn.Module):
    """Monocular depth as the expectation over fixed depth bins (AdaBins-style, fixed bins)."""

    def __init__(self, in_ch: int = 8, n_bins: int = 16, min_depth: float = 0.1, max_depth: float = 10.0):
        super().__init__()
        self.n_bins = n_bins
        self.min_depth = min_depth
        self.max_depth = max_depth
        self.logits = nn.Conv2d(in_ch, n_bins, 1)

    def forward(self, feat: torch.Tensor) -> torch.Tensor:
        prob = self.logits(feat).softmax(dim=1)
        centers = np.linspace(self.min_depth, self.max_depth, self.n_bins)
        bins = torch.from_numpy(centers).to(feat.device)  # expect: DTL004
        depth = (prob * bins.view(1, -1, 1, 1)).sum(dim=1, keepdim=True)
        return depth


def example():
    torch.manual_seed(0)
    model = DepthDistributionHead().to(torch.bfloat16)
    feat = torch.randn(2, 8, 6, 10).to(torch.bfloat16)
    return model, (feat,)
