import torch
import torch.nn as nn
import torch.nn.functional as F


def fuse_pyramid(feats: list[torch.Tensor], size: tuple[int, int]) -> torch.Tensor:
    B, C = feats[0].shape[:2]
    out = torch.zeros(B, C, *size, device=feats[0].device)  # expect: DTL001
    for f in feats:
        out = out + F.interpolate(f, size=size, mode="bilinear", align_corners=False)
    return out / len(feats)


def fuse_pyramid_like(feats: list[torch.Tensor], size: tuple[int, int]) -> torch.Tensor:
    out = feats[0].new_zeros(*feats[0].shape[:2], *size)  # lookalike: new_*
    for f in feats:
        out = out + F.interpolate(f, size=size, mode="bilinear", align_corners=False)
    return out / len(feats)


class SimpleFPNHead(nn.Module):
    def __init__(self, channels: int = 256, num_classes: int = 19):
        super().__init__()
        self.cls = nn.Conv2d(channels, num_classes, 1)

    def forward(self, p2, p3, p4):
        return self.cls(fuse_pyramid_like([p2, p3, p4], tuple(p2.shape[-2:])))
