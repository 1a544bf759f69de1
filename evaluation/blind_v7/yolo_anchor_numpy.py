import numpy as np
import torch
from torch import nn

ANCHORS_P3 = [[10.0, 13.0], [16.0, 30.0], [33.0, 23.0]]


class YoloDetectLayer(nn.Module):
    """YOLOv5-style inference decode for one level; anchors kept as a Python list of pixel sizes."""

    def __init__(self, num_classes: int = 4, in_channels: int = 32, stride: int = 8, anchors=ANCHORS_P3) -> None:
        super().__init__()
        self.na = len(anchors)
        self.no = num_classes + 5
        self.stride = stride
        self.anchors = anchors
        self.m = nn.Conv2d(in_channels, self.na * self.no, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bs, _, ny, nx = x.shape
        p = self.m(x).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).sigmoid()
        yv, xv = torch.meshgrid(torch.arange(ny, device=x.device), torch.arange(nx, device=x.device), indexing="ij")
        grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2)
        anchor_grid = torch.as_tensor(np.array(self.anchors), device=x.device).view(1, self.na, 1, 1, 2)  # expect: DTL004
        xy = (p[..., :2] * 2 - 0.5 + grid) * self.stride
        wh = (p[..., 2:4] * 2) ** 2 * anchor_grid
        return torch.cat((xy, wh, p[..., 4:]), -1).view(bs, -1, self.no)


def example():
    torch.manual_seed(0)
    model = YoloDetectLayer().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 6, 6, dtype=torch.bfloat16),)
