import torch
import torch.nn as nn


class FixedRigProjector(nn.Module):
    """Projects predicted points with a rig camera fixed at construction time."""

    def __init__(self, K, dim: int = 128):
        super().__init__()
        self.K = torch.as_tensor(K, dtype=torch.float32)  # expect: DTL005
        self.xyz = nn.Linear(dim, 3)

    def forward(self, feat):
        xyz = self.xyz(feat)
        uvw = xyz @ self.K.T  # expect: DTL002
        return uvw[..., :2] / uvw[..., 2:]
