"""Flow-guided feature alignment for video super-resolution (BasicVSR-style backward warping)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FlowAlign(nn.Module):
    def __init__(self, channels: int = 16):
        super().__init__()
        self.flow_head = nn.Sequential(nn.Conv2d(2 * channels, 32, 3, padding=1), nn.ReLU(), nn.Conv2d(32, 2, 3, padding=1))
        self.fuse = nn.Conv2d(2 * channels, channels, 1)

    def forward(self, feat_cur: torch.Tensor, feat_prev: torch.Tensor) -> torch.Tensor:
        n, _, h, w = feat_prev.shape
        flow = self.flow_head(torch.cat([feat_cur, feat_prev], dim=1)).permute(0, 2, 3, 1)
        grid_y, grid_x = torch.meshgrid(
            torch.arange(0, h, device=flow.device), torch.arange(0, w, device=flow.device), indexing="ij"
        )  # lookalike: integer grid
        vgrid = torch.stack((grid_x, grid_y), 2).float() + flow  # expect: DTL003
        vgrid_x = 2.0 * vgrid[..., 0] / max(w - 1, 1) - 1.0
        vgrid_y = 2.0 * vgrid[..., 1] / max(h - 1, 1) - 1.0
        vgrid_scaled = torch.stack((vgrid_x, vgrid_y), dim=3)
        warped = F.grid_sample(feat_prev, vgrid_scaled, mode="bilinear", padding_mode="zeros", align_corners=True)
        return self.fuse(torch.cat([feat_cur, warped], dim=1))


def example():
    m = FlowAlign().to(torch.bfloat16)
    a = torch.randn(2, 16, 12, 12, dtype=torch.bfloat16)
    b = torch.randn(2, 16, 12, 12, dtype=torch.bfloat16)
    return m, (a, b)
