import numpy as np
import torch
import torch.nn as nn


def generate_anchors(sizes, ratios, stride: int, feat_size: int) -> np.ndarray:
    base = np.array([[s * np.sqrt(1.0 / r), s * np.sqrt(r)] for s in sizes for r in ratios])
    ys, xs = np.meshgrid(np.arange(feat_size), np.arange(feat_size), indexing="ij")
    ctr = (np.stack([xs, ys], -1).reshape(-1, 1, 2) + 0.5) * stride
    wh = np.broadcast_to(base[None], (ctr.shape[0], base.shape[0], 2))
    return np.concatenate([np.broadcast_to(ctr, wh.shape), wh], -1).reshape(-1, 4)


class RetinaAnchorDecoder(nn.Module):
    def __init__(self, feat_size: int = 64, stride: int = 8):
        super().__init__()
        anchors = generate_anchors((32, 40, 50), (0.5, 1.0, 2.0), stride, feat_size)
        self.anchors = torch.from_numpy(anchors)  # expect: DTL005
        self.reg = nn.Conv2d(256, 9 * 4, 3, padding=1)

    def forward(self, feat):
        deltas = self.reg(feat).permute(0, 2, 3, 1).reshape(feat.shape[0], -1, 4)
        ctr = self.anchors[:, :2] + deltas[..., :2] * self.anchors[:, 2:]
        wh = self.anchors[:, 2:] * deltas[..., 2:].exp()
        return torch.cat([ctr - wh / 2, ctr + wh / 2], dim=-1)
