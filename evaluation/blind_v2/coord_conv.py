"""CoordConv: convolution with appended normalized x/y coordinate channels."""

import torch
import torch.nn as nn


class AddCoords(nn.Module):
    def __init__(self, with_r: bool = False):
        super().__init__()
        self.with_r = with_r

    def forward(self, x):
        B, _, H, W = x.shape
        xs = torch.linspace(-1.0, 1.0, W, device=x.device)  # expect: DTL001
        ys = (torch.arange(H, device=x.device) + 0.5) / H * 2.0 - 1.0  # expect: DTL001
        yy, xx = torch.meshgrid(ys, xs, indexing="ij")
        coords = [xx.expand(B, 1, H, W), yy.expand(B, 1, H, W)]
        if self.with_r:
            coords.append(torch.sqrt(xx ** 2 + yy ** 2).expand(B, 1, H, W))
        return torch.cat([x, *coords], dim=1)


class CoordConv(nn.Module):
    def __init__(self, in_ch: int, out_ch: int, with_r: bool = True):
        super().__init__()
        self.add_coords = AddCoords(with_r)
        self.conv = nn.Conv2d(in_ch + 2 + int(with_r), out_ch, 3, padding=1)

    def forward(self, x):
        return self.conv(self.add_coords(x))


def example():
    model = CoordConv(4, 8).to(torch.bfloat16)
    return model, (torch.randn(2, 4, 8, 8, dtype=torch.bfloat16),)
