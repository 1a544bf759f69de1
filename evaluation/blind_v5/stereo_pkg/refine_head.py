import torch
import torch.nn.functional as F
from torch import nn

from .cost_ops import soft_argmin


class DisparityRefineHead(nn.Module):
    """StereoNet-style refinement: soft-argmin disparity plus a residual from image features."""

    def __init__(self, feat_dim: int = 8):
        super().__init__()
        self.refine = nn.Sequential(nn.Conv2d(feat_dim + 1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, cost, feats):
        D = cost.shape[1]
        candidates = torch.arange(D, device=cost.device, dtype=cost.dtype)  # lookalike: dtype given
        disp = soft_argmin(cost, candidates)
        residual = self.refine(torch.cat([disp, feats], dim=1))
        return F.relu(disp + residual)


def example():
    torch.manual_seed(0)
    model = DisparityRefineHead().to(torch.bfloat16)
    cost = torch.randn(2, 12, 8, 12, dtype=torch.bfloat16)
    feats = torch.randn(2, 8, 8, 12, dtype=torch.bfloat16)
    return model, (cost, feats)
