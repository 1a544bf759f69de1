import torch
from torch import nn


class FP32ProjectionHead(nn.Module):
    """Projects regressed points in float32 on purpose, autocast disabled, and casts back."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.point_head = nn.Linear(dim, 3)

    def forward(self, feats, intrinsics):
        pts = self.point_head(feats)
        pts = torch.cat([pts[..., :2], pts[..., 2:].exp() + 0.5], dim=-1)
        with torch.autocast(device_type="cpu", enabled=False):
            pts32 = pts.float()
            uvw = pts32 @ intrinsics.float().transpose(-1, -2)  # lookalike: fp32 region by design, both cast
            uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-4)
        return uv.to(pts.dtype)


def example():
    torch.manual_seed(0)
    model = FP32ProjectionHead().to(torch.bfloat16)
    feats = torch.randn(2, 20, 32, dtype=torch.bfloat16)
    intrinsics = torch.tensor([[300.0, 0.0, 160.0], [0.0, 300.0, 120.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3).clone()
    return model, (feats, intrinsics)
