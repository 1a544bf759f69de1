"""Box regression head decoding (dx, dy, dw, dh) deltas relative to anchors."""

import math

import torch
import torch.nn as nn


def delta2bbox(anchors, deltas, wh_ratio_clip: float = 16 / 1000):
    """anchors: (N, 4) xyxy; deltas: (N, 4) normalized -> boxes (N, 4)."""
    means = torch.tensor([0.0, 0.0, 0.0, 0.0], device=deltas.device)  # expect: DTL001
    stds = torch.tensor([0.1, 0.1, 0.2, 0.2], device=deltas.device)  # expect: DTL001
    deltas = deltas * stds + means
    max_ratio = abs(math.log(wh_ratio_clip))
    dwh = deltas[:, 2:].clamp(min=-max_ratio, max=max_ratio)
    pxy = (anchors[:, :2] + anchors[:, 2:]) * 0.5
    pwh = anchors[:, 2:] - anchors[:, :2]
    gxy = pxy + pwh * deltas[:, :2]
    gwh = pwh * dwh.exp()
    return torch.cat([gxy - gwh * 0.5, gxy + gwh * 0.5], dim=-1)


class BoxHead(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.reg = nn.Linear(dim, 4)

    def forward(self, roi_feats, rois):
        return delta2bbox(rois, self.reg(roi_feats))


def example():
    head = BoxHead().to(torch.bfloat16)
    rois = torch.tensor([[10.0, 10.0, 50.0, 60.0], [0.0, 0.0, 20.0, 20.0]], dtype=torch.bfloat16)
    return head, (torch.randn(2, 32, dtype=torch.bfloat16), rois)
