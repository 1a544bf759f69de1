import torch
import torch.nn as nn


class AutocastCenterProjector(nn.Module):
    """Projection run inside an autocast region: autocast casts the matmul operands."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.head = nn.Linear(dim, 3)

    def forward(self, feats, intrinsics):
        pts = self.head(feats)
        pts = torch.cat([pts[..., :2], pts[..., 2:].abs() + 1.0], dim=-1)
        with torch.autocast(device_type=pts.device.type, dtype=torch.bfloat16):
            uvw = torch.matmul(pts, intrinsics.transpose(-1, -2))  # lookalike: under autocast
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)


def example():
    model = AutocastCenterProjector().to(torch.bfloat16)
    K = torch.tensor([[60.0, 0, 30], [0, 60.0, 20], [0, 0, 1]]).expand(2, 3, 3).contiguous()
    return model, (torch.randn(2, 9, 32, dtype=torch.bfloat16), K)
