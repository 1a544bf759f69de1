import torch
from torch import nn


class YOLOGridDecode(nn.Module):
    """YOLOv5 Detect inference decode of one level: integer cell grid, registered anchor grid."""

    def __init__(self, in_channels: int = 32, num_classes: int = 4, stride: float = 8.0,
                 anchors=((10.0, 13.0), (16.0, 30.0), (33.0, 23.0))):
        super().__init__()
        self.na, self.no, self.stride = len(anchors), num_classes + 5, stride
        self.m = nn.Conv2d(in_channels, self.na * self.no, 1)
        self.register_buffer("anchor_grid", torch.tensor(anchors).view(1, self.na, 1, 1, 2))

    def forward(self, feat):
        B, _, ny, nx = feat.shape
        p = self.m(feat).view(B, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).sigmoid()
        yv, xv = torch.meshgrid(
            torch.arange(ny, device=feat.device),  # lookalike: int64 grid in elementwise arithmetic keeps bf16
            torch.arange(nx, device=feat.device),
            indexing="ij",
        )
        grid = torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2)
        xy = (p[..., :2] * 2 - 0.5 + grid) * self.stride
        wh = (p[..., 2:4] * 2) ** 2 * self.anchor_grid
        return torch.cat((xy, wh, p[..., 4:]), -1).view(B, -1, self.no)


def example():
    torch.manual_seed(0)
    model = YOLOGridDecode().to(torch.bfloat16)
    feat = torch.randn(2, 32, 8, 10, dtype=torch.bfloat16)
    return model, (feat,)
