import torch
import torch.nn as nn
import torch.nn.functional as F


def flow_warp(x, flow):
    """Backward-warp x (B, C, H, W) by a pixel flow (B, 2, H, W)."""
    B, C, H, W = x.shape
    gy = torch.linspace(-1, 1, H, device=x.device).to(x.dtype)  # lookalike: cast right after creation
    gx = torch.linspace(-1, 1, W, device=x.device).type_as(x)  # lookalike: cast right after creation
    yy, xx = torch.meshgrid(gy, gx, indexing="ij")
    base = torch.stack([xx, yy], dim=-1)[None]
    norm = flow.new_tensor([2.0 / max(W - 1, 1), 2.0 / max(H - 1, 1)])
    grid = base + flow.permute(0, 2, 3, 1) * norm
    return F.grid_sample(x, grid, align_corners=True)


class FlowWarpAlign(nn.Module):
    def __init__(self, ch: int = 16):
        super().__init__()
        self.flow_head = nn.Conv2d(2 * ch, 2, 3, padding=1)

    def forward(self, ref, nbr):
        flow = self.flow_head(torch.cat([ref, nbr], dim=1))
        return flow_warp(nbr, flow)


def example():
    model = FlowWarpAlign().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 10, 12, dtype=torch.bfloat16), torch.randn(2, 16, 10, 12, dtype=torch.bfloat16))
