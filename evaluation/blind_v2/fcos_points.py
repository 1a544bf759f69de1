"""FCOS-style box decoding from per-location (l, t, r, b) distances."""

import torch
import torch.nn as nn


class FCOSHead(nn.Module):
    def __init__(self, in_ch: int = 8, num_classes: int = 3, stride: int = 8):
        super().__init__()
        self.stride = stride
        self.cls = nn.Conv2d(in_ch, num_classes, 3, padding=1)
        self.reg = nn.Conv2d(in_ch, 4, 3, padding=1)

    def locations(self, h: int, w: int, device):
        shifts_x = torch.arange(0, w * self.stride, self.stride, device=device) + self.stride // 2
        shifts_y = torch.arange(0, h * self.stride, self.stride, device=device) + self.stride // 2
        yy, xx = torch.meshgrid(shifts_y, shifts_x, indexing="ij")
        return xx.reshape(-1), yy.reshape(-1)

    def forward(self, feat):
        B, _, H, W = feat.shape
        px, py = self.locations(H, W, feat.device)
        ltrb = torch.relu(self.reg(feat)).flatten(2) * self.stride  # (B, 4, HW)
        l, t, r, b = ltrb.unbind(1)
        boxes = torch.stack([px - l, py - t, px + r, py + b], dim=-1)
        scores = self.cls(feat).flatten(2).transpose(1, 2).sigmoid()
        return boxes, scores


def example():
    return FCOSHead().to(torch.bfloat16), (torch.randn(2, 8, 3, 4, dtype=torch.bfloat16),)
