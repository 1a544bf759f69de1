import numpy as np
import torch
from torch import nn


class LogDepthClassifier(nn.Module):
    """Depth as soft classification over log-spaced bins (DORN / BTS style)."""

    def __init__(self, in_channels: int = 32, num_bins: int = 16, min_depth: float = 0.5, max_depth: float = 80.0):
        super().__init__()
        self.num_bins = num_bins
        self.min_depth, self.max_depth = min_depth, max_depth
        self.classifier = nn.Conv2d(in_channels, num_bins, 1)

    def forward(self, feats):
        prob = self.classifier(feats).softmax(dim=1)
        centers = np.geomspace(self.min_depth, self.max_depth, self.num_bins)
        bins = torch.from_numpy(centers).to(prob.device).view(1, -1, 1, 1)  # expect: DTL004
        depth = (prob * bins).sum(dim=1, keepdim=True)
        return depth


def example():
    torch.manual_seed(0)
    model = LogDepthClassifier().to(torch.bfloat16)
    feats = torch.randn(2, 32, 6, 8, dtype=torch.bfloat16)
    return model, (feats,)
