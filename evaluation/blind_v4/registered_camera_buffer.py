import torch
import torch.nn as nn


class RigCameraProjector(nn.Module):
    """A fixed rig camera stored as a registered buffer: module.to() converts it."""

    def __init__(self, dim: int = 32):
        super().__init__()
        K = torch.tensor([[120.0, 0.0, 64.0], [0.0, 120.0, 48.0], [0.0, 0.0, 1.0]])
        self.register_buffer("K", K)  # lookalike: registered buffer
        self.head = nn.Linear(dim, 3)

    def forward(self, obj_feats):
        xyz = self.head(obj_feats)
        xyz = torch.cat([xyz[..., :2], xyz[..., 2:].exp() + 1.0], dim=-1)
        uvw = xyz @ self.K.T
        return uvw[..., :2] / uvw[..., 2:]


def example():
    model = RigCameraProjector().to(torch.bfloat16)
    return model, (torch.randn(3, 5, 32, dtype=torch.bfloat16),)
