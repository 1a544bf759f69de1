import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_anchor_centers(h: int, w: int, stride: int) -> np.ndarray:
    ys, xs = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    return np.stack([xs, ys], -1).reshape(-1, 2) * stride + stride / 2.0


class AnchorPointDecoder(nn.Module):
    """Anchor-free (l, t, r, b) regression decoded around grid-cell centres."""

    def __init__(self, in_ch: int = 32, stride: int = 8):
        super().__init__()
        self.stride = stride
        self.reg = nn.Conv2d(in_ch, 4, 3, padding=1)

    def forward(self, feat):
        B, _, H, W = feat.shape
        ltrb = F.relu(self.reg(feat)).flatten(2).transpose(1, 2) * self.stride
        centers = torch.tensor(make_anchor_centers(H, W, self.stride), device=feat.device)  # expect: DTL004
        return torch.cat([centers - ltrb[..., :2], centers + ltrb[..., 2:]], dim=-1)


def example():
    model = AnchorPointDecoder().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 6, 8, dtype=torch.bfloat16),)
