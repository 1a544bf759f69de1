"""YOLOv8-style decoupled head: anchor points and distance-to-box decoding in forward."""
from typing import List

import torch
import torch.nn as nn


class DFLFreeHead(nn.Module):
    def __init__(self, in_ch: int = 32, num_classes: int = 5, strides=(8, 16)):
        super().__init__()
        self.strides = strides
        self.box = nn.ModuleList([nn.Conv2d(in_ch, 4, 1) for _ in strides])
        self.cls = nn.ModuleList([nn.Conv2d(in_ch, num_classes, 1) for _ in strides])

    def forward(self, feats: List[torch.Tensor]) -> torch.Tensor:
        outs = []
        for i, x in enumerate(feats):
            _, _, h, w = x.shape
            stride = self.strides[i]
            sx = torch.arange(w, device=x.device) + 0.5  # expect: DTL001
            sy = torch.arange(h, device=x.device) + 0.5  # expect: DTL001
            sy, sx = torch.meshgrid(sy, sx, indexing="ij")
            anchor_points = torch.stack((sx, sy), -1).view(-1, 2)
            distance = self.box[i](x).flatten(2).transpose(1, 2).relu()
            lt, rb = distance.chunk(2, dim=-1)
            boxes = torch.cat([anchor_points - lt, anchor_points + rb], dim=-1) * stride
            scores = self.cls[i](x).flatten(2).transpose(1, 2).sigmoid()
            outs.append(torch.cat([boxes, scores], dim=-1))
        return torch.cat(outs, dim=1)


def example():
    head = DFLFreeHead().to(torch.bfloat16)
    feats = [torch.randn(2, 32, 8, 8, dtype=torch.bfloat16), torch.randn(2, 32, 4, 4, dtype=torch.bfloat16)]
    return head, (feats,)
