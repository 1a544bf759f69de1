"""RPN-style box regression decoded against anchors that were precomputed with NumPy."""
import numpy as np
import torch
import torch.nn as nn


def make_base_anchors(stride: int, scales=(2.0, 4.0), ratios=(0.5, 1.0, 2.0)) -> np.ndarray:
    ws, hs = [], []
    for r in ratios:
        for s in scales:
            ws.append(stride * s / np.sqrt(r))
            hs.append(stride * s * np.sqrt(r))
    ws, hs = np.array(ws), np.array(hs)
    return np.stack([-ws / 2, -hs / 2, ws / 2, hs / 2], axis=1)


class RPNHead(nn.Module):
    def __init__(self, in_ch: int = 32, stride: int = 8):
        super().__init__()
        self.stride = stride
        self.base_anchors = make_base_anchors(stride)
        A = len(self.base_anchors)
        self.conv = nn.Conv2d(in_ch, in_ch, 3, padding=1)
        self.reg = nn.Conv2d(in_ch, A * 4, 1)

    def forward(self, feat: torch.Tensor) -> torch.Tensor:
        B, _, H, W = feat.shape
        deltas = self.reg(torch.relu(self.conv(feat))).permute(0, 2, 3, 1).reshape(B, -1, 4)
        sx, sy = np.meshgrid(np.arange(W) * self.stride, np.arange(H) * self.stride)
        shifts = np.stack([sx, sy, sx, sy], axis=-1).reshape(-1, 1, 4)
        anchors = torch.from_numpy((shifts + self.base_anchors[None]).reshape(-1, 4)).to(feat.device)  # expect: DTL004
        widths = anchors[:, 2] - anchors[:, 0]
        heights = anchors[:, 3] - anchors[:, 1]
        ctr_x = anchors[:, 0] + 0.5 * widths + deltas[..., 0] * widths
        ctr_y = anchors[:, 1] + 0.5 * heights + deltas[..., 1] * heights
        w = widths * deltas[..., 2].clamp(max=4.0).exp()
        h = heights * deltas[..., 3].clamp(max=4.0).exp()
        return torch.stack([ctr_x - 0.5 * w, ctr_y - 0.5 * h, ctr_x + 0.5 * w, ctr_y + 0.5 * h], dim=-1)


def example():
    head = RPNHead().to(torch.bfloat16)
    return head, (torch.randn(2, 32, 6, 8, dtype=torch.bfloat16),)
