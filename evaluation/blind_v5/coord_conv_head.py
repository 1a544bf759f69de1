import torch
import torch.nn.functional as F
from torch import nn


class CoordConvMaskHead(nn.Module):
    """SOLO-style mask branch: appends normalised x/y coordinate planes before the convs."""

    def __init__(self, in_channels: int = 32, num_masks: int = 8):
        super().__init__()
        self.conv = nn.Conv2d(in_channels + 2, 32, 3, padding=1)
        self.mask = nn.Conv2d(32, num_masks, 1)

    def forward(self, feat):
        B, _, H, W = feat.shape
        y_range, x_range = torch.meshgrid(
            torch.linspace(-1, 1, H, device=feat.device),  # expect: DTL001
            torch.linspace(-1, 1, W, device=feat.device),  # expect: DTL001
            indexing="ij",
        )
        coord = torch.stack([x_range, y_range])[None].expand(B, -1, -1, -1)
        x = torch.cat([feat, coord], dim=1)
        x = F.relu(self.conv(x))
        return self.mask(x)


def example():
    torch.manual_seed(0)
    model = CoordConvMaskHead().to(torch.bfloat16)
    feat = torch.randn(2, 32, 10, 12, dtype=torch.bfloat16)
    return model, (feat,)
