import torch
import torch.nn as nn


class YoloDetect(nn.Module):
    """YOLOv5-style detection layer (one scale) decoding boxes in the forward pass."""

    def __init__(self, nc: int = 4, anchors=((10, 13), (16, 30), (33, 23)), ch: int = 32, stride: float = 8.0):
        super().__init__()
        self.no, self.na, self.stride = nc + 5, len(anchors), stride
        self.anchor_grid = torch.tensor(anchors).float().view(1, self.na, 1, 1, 2)  # expect: DTL005
        self.m = nn.Conv2d(ch, self.no * self.na, 1)

    def forward(self, x):
        bs, _, ny, nx = x.shape
        p = self.m(x).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2)
        yv, xv = torch.meshgrid(
            torch.arange(ny, device=x.device), torch.arange(nx, device=x.device), indexing="ij"
        )
        grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2)  # lookalike: integer grid
        y = p.sigmoid()
        xy = (y[..., 0:2] * 2 - 0.5 + grid) * self.stride
        wh = (y[..., 2:4] * 2) ** 2 * self.anchor_grid
        return torch.cat((xy, wh, y[..., 4:]), -1).view(bs, -1, self.no)


def example():
    model = YoloDetect().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 8, 10, dtype=torch.bfloat16),)
