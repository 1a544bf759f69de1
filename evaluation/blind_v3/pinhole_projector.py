import torch
from torch import nn


class PinholeProjector(nn.Module):
    """Projects predicted camera-frame points with a fixed calibration."""

    def __init__(self, fx: float, fy: float, cx: float, cy: float, dim: int = 16):
        super().__init__()
        self.K = torch.tensor([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])
        self.point_head = nn.Linear(dim, 3)
        self.depth_offset = nn.Parameter(torch.tensor([0.0, 0.0, 3.0]))

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        pts_cam = self.point_head(feats) + self.depth_offset
        uvw = pts_cam @ self.K.T  # expect: DTL002
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)


def example():
    torch.manual_seed(0)
    model = PinholeProjector(60.0, 60.0, 32.0, 24.0).to(torch.bfloat16)
    feats = torch.randn(4, 7, 16).to(torch.bfloat16)
    return model, (feats,)
