import torch
import torch.nn as nn


class PlaneFitHead(nn.Module):
    """Fits z = a x + b y + c to predicted points in float32 with autocast switched off."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.point_head = nn.Linear(dim, 3)

    def forward(self, feats):
        pts = self.point_head(feats)
        with torch.autocast(device_type=pts.device.type, enabled=False):
            p32 = pts.float()
            A = torch.cat([p32[..., :2], torch.ones_like(p32[..., :1])], dim=-1)  # lookalike: fp32 region
            b = p32[..., 2:]
            sol = torch.linalg.lstsq(A, b).solution
            residual = A @ sol - b
        return residual.to(pts.dtype), sol.to(pts.dtype)


def example():
    model = PlaneFitHead().to(torch.bfloat16)
    return model, (torch.randn(2, 40, 32, dtype=torch.bfloat16),)
