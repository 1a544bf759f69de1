import numpy as np
import torch
from torch import nn


class AnchorBoxDecoder(nn.Module):
    """YOLOv3-style decoding: anchor sizes from the config, kept as a NumPy array."""

    def __init__(self, in_channels: int = 32, anchor_sizes=((10, 13), (16, 30), (33, 23))):
        super().__init__()
        self.anchor_wh = np.array(anchor_sizes, dtype=np.float64) / 416.0
        self.pred = nn.Conv2d(in_channels, len(anchor_sizes) * 4, 1)

    def forward(self, feat):
        B, _, H, W = feat.shape
        out = self.pred(feat).view(B, -1, 4, H, W)
        anchors = torch.as_tensor(self.anchor_wh, device=feat.device).view(1, -1, 2, 1, 1)  # expect: DTL004
        wh = out[:, :, 2:].exp() * anchors
        xy = out[:, :, :2].sigmoid()
        return torch.cat([xy, wh], dim=2)


def example():
    torch.manual_seed(0)
    model = AnchorBoxDecoder().to(torch.bfloat16)
    feat = torch.randn(2, 32, 8, 8, dtype=torch.bfloat16)
    return model, (feat,)
