"""SOLOv2-style mask feature head: CoordConv input made from the feature map's size."""
from typing import List

import torch
import torch.nn as nn
import torch.nn.functional as F


def generate_coordinate(featmap_sizes, device="cuda"):
    """Normalized (x, y) coordinates of a feature map, as mmdet's helper makes them."""
    x_range = torch.linspace(-1, 1, featmap_sizes[-1], device=device)
    y_range = torch.linspace(-1, 1, featmap_sizes[-2], device=device)
    y, x = torch.meshgrid(y_range, x_range, indexing="ij")
    y = y.expand([featmap_sizes[0], 1, -1, -1])
    x = x.expand([featmap_sizes[0], 1, -1, -1])
    return torch.cat([x, y], 1)


class MaskFeatHead(nn.Module):
    def __init__(self, in_channels: int = 32, feat_channels: int = 32, out_channels: int = 16):
        super().__init__()
        self.lateral = nn.ModuleList([nn.Conv2d(in_channels, feat_channels, 3, padding=1) for _ in range(3)])
        self.coord_conv = nn.Conv2d(feat_channels + 2, feat_channels, 3, padding=1)
        self.conv_pred = nn.Conv2d(feat_channels, out_channels, 1)

    def forward(self, feats: List[torch.Tensor]) -> torch.Tensor:
        out = self.lateral[0](feats[0])
        for i in range(1, len(feats)):
            x = self.lateral[i](feats[i])
            if i == len(feats) - 1:
                x = torch.cat([x, generate_coordinate(x.size(), x.device)], 1)  # expect: DTL001
                x = self.coord_conv(x)
            out = out + F.interpolate(x, size=out.shape[-2:], mode="bilinear", align_corners=False)
        return self.conv_pred(F.relu(out))


def example():
    head = MaskFeatHead().to(torch.bfloat16)
    feats = [torch.randn(2, 32, 32 // 2**i, 32 // 2**i, dtype=torch.bfloat16) for i in range(3)]
    return head, (feats,)
