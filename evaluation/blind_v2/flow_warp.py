"""Backward warping of a feature map with a predicted optical flow."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def flow_warp(x, flow):
    """x: (B, C, H, W); flow: (B, 2, H, W) in pixels."""
    B, _, H, W = x.shape
    ys, xs = torch.meshgrid(
        torch.arange(H, device=x.device, dtype=x.dtype),
        torch.arange(W, device=x.device, dtype=x.dtype),
        indexing="ij",
    )
    grid = torch.stack([xs, ys], dim=0)[None] + flow
    gx = 2.0 * grid[:, 0] / max(W - 1, 1) - 1.0
    gy = 2.0 * grid[:, 1] / max(H - 1, 1) - 1.0
    return F.grid_sample(x, torch.stack([gx, gy], dim=-1), align_corners=True)


class FlowRefiner(nn.Module):
    def __init__(self, ch: int = 4):
        super().__init__()
        self.flow = nn.Conv2d(2 * ch, 2, 3, padding=1)

    def forward(self, feat1, feat2):
        flow = self.flow(torch.cat([feat1, feat2], dim=1))
        return flow_warp(feat2, flow), flow


def example():
    f1 = torch.randn(1, 4, 6, 7, dtype=torch.bfloat16)
    f2 = torch.randn(1, 4, 6, 7, dtype=torch.bfloat16)
    return FlowRefiner().to(torch.bfloat16), (f1, f2)
