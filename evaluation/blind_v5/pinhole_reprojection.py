import torch
from torch import nn


class PinholeReprojection(nn.Module):
    """Projects predicted camera-frame points with a fixed pinhole camera set in the config."""

    def __init__(self, fx: float, fy: float, cx: float, cy: float, feat_dim: int = 32):
        super().__init__()
        self.fx, self.fy, self.cx, self.cy = fx, fy, cx, cy
        self.point_head = nn.Linear(feat_dim, 3)

    def forward(self, feats):
        pts = self.point_head(feats)
        pts = torch.cat([pts[..., :2], pts[..., 2:].exp() + 1.0], dim=-1)
        pinhole = torch.tensor(  # expect: DTL001
            [[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0.0, 0.0, 1.0]],
            device=pts.device,
        )
        uvw = pts @ pinhole.T
        return uvw[..., :2] / uvw[..., 2:]


def example():
    torch.manual_seed(0)
    model = PinholeReprojection(fx=500.0, fy=500.0, cx=320.0, cy=240.0).to(torch.bfloat16)
    feats = torch.randn(2, 100, 32, dtype=torch.bfloat16)
    return model, (feats,)
