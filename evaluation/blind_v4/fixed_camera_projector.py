import torch
import torch.nn as nn


class FixedCameraProjector(nn.Module):
    """Object-centre head for a rig with one fixed, calibrated camera."""

    def __init__(self, fx=100.0, fy=100.0, cx=32.0, cy=24.0, dim: int = 32):
        super().__init__()
        self.K = torch.tensor([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])  # expect: DTL005
        self.head = nn.Linear(dim, 3)

    def forward(self, obj_feats):
        xyz = self.head(obj_feats)
        xyz = torch.cat([xyz[..., :2], xyz[..., 2:].exp() + 1.0], dim=-1)
        uvw = xyz @ self.K.T  # expect: DTL002
        return uvw[..., :2] / uvw[..., 2:]


def example():
    model = FixedCameraProjector().to(torch.bfloat16)
    return model, (torch.randn(4, 8, 32, dtype=torch.bfloat16),)
