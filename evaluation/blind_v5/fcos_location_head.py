import torch
import torch.nn.functional as F
from torch import nn


class FCOSLocationHead(nn.Module):
    """Anchor-free box regression for one FPN level with a precomputed grid of locations."""

    def __init__(self, in_channels: int = 32, feat_size=(8, 10), stride: int = 8):
        super().__init__()
        self.stride = stride
        ys, xs = torch.meshgrid(torch.arange(feat_size[0]), torch.arange(feat_size[1]), indexing="ij")
        self.locations = (torch.stack([xs, ys], dim=-1).reshape(-1, 2).float() + 0.5) * stride  # expect: DTL005
        self.reg = nn.Conv2d(in_channels, 4, 3, padding=1)
        self.cls = nn.Conv2d(in_channels, 3, 3, padding=1)

    def forward(self, feat):
        ltrb = F.relu(self.reg(feat)).flatten(2).transpose(1, 2) * self.stride
        scores = self.cls(feat).flatten(2).transpose(1, 2).sigmoid()
        boxes = torch.cat([self.locations - ltrb[..., :2], self.locations + ltrb[..., 2:]], dim=-1)
        return boxes, scores


def example():
    torch.manual_seed(0)
    model = FCOSLocationHead().to(torch.bfloat16)
    feat = torch.randn(2, 32, 8, 10, dtype=torch.bfloat16)
    return model, (feat,)
