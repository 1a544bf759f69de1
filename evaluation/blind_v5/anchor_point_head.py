import torch
import torch.nn.functional as F
from torch import nn


def make_anchor_points(feat_hw: tuple, stride: float, device: torch.device):
    """Pixel-centre anchor points of one feature level, from its size alone (no tensor input)."""
    h, w = feat_hw
    ys = (torch.arange(h, device=device) + 0.5) * stride
    xs = (torch.arange(w, device=device) + 0.5) * stride
    yy, xx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([xx, yy], dim=-1).view(-1, 2)


class AnchorPointHead(nn.Module):
    """YOLOX/TOOD-style distance regression from anchor points of one level."""

    def __init__(self, in_channels: int = 32, stride: float = 8.0):
        super().__init__()
        self.stride = stride
        self.reg = nn.Conv2d(in_channels, 4, 3, padding=1)

    def forward(self, feat):
        B, _, H, W = feat.shape
        points = make_anchor_points((H, W), self.stride, feat.device).to(feat.dtype)  # lookalike: cast right after
        ltrb = F.relu(self.reg(feat)).flatten(2).transpose(1, 2) * self.stride
        return torch.cat([points - ltrb[..., :2], points + ltrb[..., 2:]], dim=-1)


def example():
    torch.manual_seed(0)
    model = AnchorPointHead().to(torch.bfloat16)
    feat = torch.randn(2, 32, 6, 8, dtype=torch.bfloat16)
    return model, (feat,)
