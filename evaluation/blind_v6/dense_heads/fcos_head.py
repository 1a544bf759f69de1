"""Anchor-free dense head (FCOS/YOLOX-like) built on the package's grid and scaling helpers."""
from typing import List

import torch
import torch.nn as nn

from .utils import make_grid_points, multi_apply, scale_by_level


class FCOSLiteHead(nn.Module):
    def __init__(self, in_ch: int = 32, num_classes: int = 4, strides=(8, 16)):
        super().__init__()
        self.strides = strides
        self.cls_conv = nn.Conv2d(in_ch, num_classes, 3, padding=1)
        self.reg_conv = nn.Conv2d(in_ch, 4, 3, padding=1)

    def forward_single(self, x: torch.Tensor, stride: int):
        B, C, h, w = x.shape
        x = scale_by_level(x, torch.linspace(1.0, 0.5, C, device=x.device))  # expect: DTL001
        cls = self.cls_conv(x).flatten(2).transpose(1, 2)
        reg = self.reg_conv(x).flatten(2).transpose(1, 2)
        xy = (reg[..., :2] + make_grid_points(h, w, x.device)) * stride  # expect: DTL001
        wh = reg[..., 2:].exp() * stride
        return cls.sigmoid(), torch.cat([xy - wh / 2, xy + wh / 2], dim=-1)

    def forward(self, feats: List[torch.Tensor]):
        cls_scores, boxes = multi_apply(self.forward_single, feats, list(self.strides))
        return torch.cat(cls_scores, dim=1), torch.cat(boxes, dim=1)


def example():
    head = FCOSLiteHead().to(torch.bfloat16)
    feats = [torch.randn(2, 32, 8, 8, dtype=torch.bfloat16), torch.randn(2, 32, 4, 4, dtype=torch.bfloat16)]
    return head, (feats,)
