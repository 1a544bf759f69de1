import torch
import torch.nn as nn


def generate_coordinate(featmap_sizes, device="cuda"):
    """Normalized x/y coordinate planes, as used by SOLO / CoordConv mask heads."""
    x_range = torch.linspace(-1, 1, featmap_sizes[-1], device=device)
    y_range = torch.linspace(-1, 1, featmap_sizes[-2], device=device)
    y, x = torch.meshgrid(y_range, x_range, indexing="ij")
    y = y.expand([featmap_sizes[0], 1, -1, -1])
    x = x.expand([featmap_sizes[0], 1, -1, -1])
    return torch.cat([x, y], 1)


class CoordMaskHead(nn.Module):
    def __init__(self, in_channels: int = 32, num_masks: int = 16):
        super().__init__()
        self.conv = nn.Conv2d(in_channels + 2, in_channels, 3, padding=1)
        self.pred = nn.Conv2d(in_channels, num_masks, 1)

    def forward(self, feat):
        coord_feat = torch.cat([feat, generate_coordinate(feat.size(), feat.device)], 1)  # expect: DTL001
        return self.pred(torch.relu(self.conv(coord_feat)))


def example():
    model = CoordMaskHead().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 20, 24, dtype=torch.bfloat16),)
