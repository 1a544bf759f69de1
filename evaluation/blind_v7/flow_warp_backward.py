import torch
from torch import nn
import torch.nn.functional as F


def backward_warp(x: torch.Tensor, flo: torch.Tensor) -> torch.Tensor:
    """PWC-Net warp: sample x (B, C, H, W) at pixel + flow."""
    B, _, H, W = x.shape
    xx = torch.arange(0, W, device=x.device).view(1, -1).repeat(H, 1).view(1, 1, H, W).repeat(B, 1, 1, 1)
    yy = torch.arange(0, H, device=x.device).view(-1, 1).repeat(1, W).view(1, 1, H, W).repeat(B, 1, 1, 1)
    vgrid = torch.cat((xx, yy), 1).float() + flo  # expect: DTL003
    vgrid = torch.stack([2.0 * vgrid[:, 0] / max(W - 1, 1) - 1.0, 2.0 * vgrid[:, 1] / max(H - 1, 1) - 1.0], dim=-1)
    return F.grid_sample(x, vgrid, align_corners=True)


class WarpingLayer(nn.Module):
    def __init__(self, channels: int = 16) -> None:
        super().__init__()
        self.refine = nn.Conv2d(2 * channels, channels, 3, padding=1)

    def forward(self, feat1: torch.Tensor, feat2: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
        warped = backward_warp(feat2, flow)
        return self.refine(torch.cat([feat1, warped], dim=1))


def example():
    torch.manual_seed(0)
    model = WarpingLayer().to(torch.bfloat16)
    f1 = torch.randn(2, 16, 8, 10, dtype=torch.bfloat16)
    f2 = torch.randn(2, 16, 8, 10, dtype=torch.bfloat16)
    flow = torch.randn(2, 2, 8, 10, dtype=torch.bfloat16)
    return model, (f1, f2, flow)
