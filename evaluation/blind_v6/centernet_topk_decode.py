"""CenterNet-style head: keep the top-k peaks of the heatmap as a sparse score map for refinement."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CenterHead(nn.Module):
    def __init__(self, in_ch: int = 32, num_classes: int = 3, k: int = 20):
        super().__init__()
        self.k = k
        self.heatmap = nn.Sequential(nn.Conv2d(in_ch, in_ch, 3, padding=1), nn.ReLU(), nn.Conv2d(in_ch, num_classes, 1))
        self.refine = nn.Conv2d(in_ch + num_classes, in_ch, 3, padding=1)

    def forward(self, feat: torch.Tensor) -> torch.Tensor:
        B, _, H, W = feat.shape
        heat = self.heatmap(feat).sigmoid()
        hmax = F.max_pool2d(heat, 3, stride=1, padding=1)
        heat = heat * (hmax == heat).to(heat.dtype)  # lookalike: mask cast to the activation dtype
        flat = heat.view(B, -1)
        topk = flat.topk(self.k, dim=1)
        sparse = torch.zeros(B, flat.shape[1], device=heat.device)  # expect: DTL001
        sparse.scatter_(1, topk.indices, topk.values)
        sparse = sparse.view_as(heat)
        return self.refine(torch.cat([feat, sparse], dim=1))


def example():
    head = CenterHead().to(torch.bfloat16)
    return head, (torch.randn(2, 32, 16, 16, dtype=torch.bfloat16),)
