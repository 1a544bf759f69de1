"""Anchor-based detection head with registered anchor buffers."""

import torch
import torch.nn as nn


class AnchorHead(nn.Module):
    def __init__(self, num_classes: int = 2, anchors=((10, 13), (16, 30), (33, 23)), in_ch: int = 8, stride: int = 8):
        super().__init__()
        self.no = num_classes + 5
        self.na = len(anchors)
        self.stride = stride
        self.register_buffer("anchor_wh", torch.tensor(anchors, dtype=torch.float32).view(1, self.na, 1, 1, 2))
        self.conv = nn.Conv2d(in_ch, self.na * self.no, 1)

    def forward(self, x):
        B, _, ny, nx = x.shape
        p = self.conv(x).view(B, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2)
        yv, xv = torch.meshgrid(torch.arange(ny, device=x.device), torch.arange(nx, device=x.device), indexing="ij")
        grid = torch.stack((xv, yv), dim=-1).view(1, 1, ny, nx, 2)
        y = p.sigmoid()
        xy = (y[..., :2] * 2 - 0.5 + grid) * self.stride
        wh = (y[..., 2:4] * 2) ** 2 * self.anchor_wh
        return torch.cat([xy, wh, y[..., 4:]], dim=-1).view(B, -1, self.no)


def example():
    return AnchorHead().to(torch.bfloat16), (torch.randn(2, 8, 3, 4, dtype=torch.bfloat16),)
