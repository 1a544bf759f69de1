import torch as th
import torch.nn as nn
import torch.nn.functional as F


def warp_with_flow(img: th.Tensor, flow: th.Tensor) -> th.Tensor:
    """Backward-warp img (B, C, H, W) with a normalised flow field (B, 2, H, W)."""
    _, _, H, W = img.shape
    ys = th.linspace(-1.0, 1.0, H, device=flow.device)  # expect: DTL001
    xs = th.linspace(-1.0, 1.0, W, device=flow.device)  # expect: DTL001
    gy, gx = th.meshgrid(ys, xs, indexing="ij")
    base = th.stack([gx, gy], dim=-1).unsqueeze(0)
    grid = base + flow.permute(0, 2, 3, 1)
    return F.grid_sample(img, grid, mode="bilinear", padding_mode="border", align_corners=True)


def flow_to_pixel_targets(flow: th.Tensor) -> th.Tensor:
    """Pixel-unit flow (B, 2, H, W) -> absolute target column per pixel."""
    cols = th.arange(flow.shape[-1], device=flow.device)  # lookalike: int64 + bf16 stays bf16
    return cols.view(1, 1, -1) + flow[:, 0]


class FlowRefiner(nn.Module):
    def __init__(self, channels: int = 64):
        super().__init__()
        self.flow_head = nn.Conv2d(2 * channels, 2, 3, padding=1)

    def forward(self, feat_a, feat_b):
        flow = self.flow_head(th.cat([feat_a, feat_b], dim=1))
        return warp_with_flow(feat_b, flow), flow
