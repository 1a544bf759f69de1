"""YOLOv5-style detection head decoding boxes from anchor priors."""

import torch
import torch.nn as nn


class Detect(nn.Module):
    def __init__(self, num_classes: int = 3, anchors=((10, 13, 16, 30, 33, 23),), ch=(16,), strides=(8,)):
        super().__init__()
        self.no = num_classes + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.strides = strides
        self.anchor_grid = torch.tensor(anchors).float().view(self.nl, 1, self.na, 1, 1, 2)  # expect: DTL005
        self.m = nn.ModuleList(nn.Conv2d(c, self.no * self.na, 1) for c in ch)

    @staticmethod
    def make_grid(nx: int, ny: int, device):
        yv, xv = torch.meshgrid(torch.arange(ny, device=device), torch.arange(nx, device=device), indexing="ij")
        return torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2)

    def forward(self, feats):
        outputs = []
        for i, x in enumerate(feats):
            x = self.m[i](x)
            bs, _, ny, nx = x.shape
            x = x.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            grid = self.make_grid(nx, ny, x.device)
            y = x.sigmoid()
            xy = (y[..., 0:2] * 2 - 0.5 + grid) * self.strides[i]
            wh = (y[..., 2:4] * 2) ** 2 * self.anchor_grid[i]
            outputs.append(torch.cat((xy, wh, y[..., 4:]), -1).view(bs, -1, self.no))
        return torch.cat(outputs, 1)


def example():
    head = Detect().to(torch.bfloat16)
    return head, ([torch.randn(2, 16, 4, 4, dtype=torch.bfloat16)],)
