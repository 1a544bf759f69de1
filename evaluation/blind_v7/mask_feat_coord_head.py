import torch
from torch import nn
import torch.nn.functional as F


class MaskFeatCoordHead(nn.Module):
    """SOLOv2-style unified mask feature branch: the coarsest level gets two coordinate channels."""

    def __init__(self, in_channels: int = 32, feat_channels: int = 32, out_channels: int = 16) -> None:
        super().__init__()
        self.lateral = nn.ModuleList(
            [nn.Conv2d(in_channels, feat_channels, 3, padding=1) for _ in range(3)]
        )
        self.coord_conv = nn.Conv2d(feat_channels + 2, feat_channels, 3, padding=1)
        self.norm = nn.GroupNorm(8, feat_channels)
        self.pred = nn.Conv2d(feat_channels, out_channels, 1)

    def forward(self, feats: list[torch.Tensor]) -> torch.Tensor:
        top = feats[-1]
        h, w = top.shape[-2:]
        x_range = torch.linspace(-1, 1, w, device=top.device)  # expect: DTL001
        y_range = torch.linspace(-1, 1, h, device=top.device)  # expect: DTL001
        y, x = torch.meshgrid(y_range, x_range, indexing="ij")
        coord = torch.stack([x, y])[None].expand(top.shape[0], -1, -1, -1)
        out = self.coord_conv(torch.cat([self.lateral[2](top), coord], dim=1))
        out = F.interpolate(out, size=feats[0].shape[-2:], mode="bilinear", align_corners=False)
        for i in range(2):
            out = out + F.interpolate(self.lateral[i](feats[i]), size=out.shape[-2:], mode="bilinear")
        return self.pred(F.relu(self.norm(out)))


def example():
    torch.manual_seed(0)
    model = MaskFeatCoordHead().to(torch.bfloat16)
    feats = [torch.randn(2, 32, s, s, dtype=torch.bfloat16) for s in (32, 16, 8)]
    return model, (feats,)
