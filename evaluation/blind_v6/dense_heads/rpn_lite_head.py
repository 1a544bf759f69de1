"""Objectness head that reuses the package helpers with the activation's dtype passed in."""
from typing import List

import torch
import torch.nn as nn

from .utils import make_grid_points, scale_by_level


class RPNLiteHead(nn.Module):
    def __init__(self, in_ch: int = 32, stride: int = 8):
        super().__init__()
        self.stride = stride
        self.obj = nn.Conv2d(in_ch, 1, 1)
        self.off = nn.Conv2d(in_ch, 2, 1)

    def forward(self, feats: List[torch.Tensor]):
        outs = []
        for lvl, x in enumerate(feats):
            B, C, h, w = x.shape
            x = scale_by_level(x, x.new_tensor([1.0 / (lvl + 1)]).expand(C))  # lookalike: new_tensor
            pts = make_grid_points(h, w, x.device, dtype=x.dtype)  # lookalike: helper given dtype=
            off = self.off(x).flatten(2).transpose(1, 2)
            centers = (pts + off.tanh()) * self.stride * (2**lvl)
            outs.append(torch.cat([centers, self.obj(x).flatten(2).transpose(1, 2)], dim=-1))
        return torch.cat(outs, dim=1)


def example():
    head = RPNLiteHead().to(torch.bfloat16)
    feats = [torch.randn(2, 32, 8, 8, dtype=torch.bfloat16), torch.randn(2, 32, 4, 4, dtype=torch.bfloat16)]
    return head, (feats,)
