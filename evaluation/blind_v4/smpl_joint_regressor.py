import numpy as np
import torch
import torch.nn as nn


class VertexJointHead(nn.Module):
    """Regresses mesh vertices, then joints with the body model's regressor matrix."""

    def __init__(self, dim: int = 32, num_verts: int = 60):
        super().__init__()
        self.num_verts = num_verts
        self.vert_head = nn.Linear(dim, num_verts * 3)

    def forward(self, feats, J_regressor: np.ndarray):
        B = feats.shape[0]
        vertices = self.vert_head(feats).view(B, self.num_verts, 3)
        J = torch.from_numpy(J_regressor)  # expect: DTL004
        joints = torch.einsum("bvk,jv->bjk", vertices, J)
        return vertices, joints


def example():
    model = VertexJointHead().to(torch.bfloat16)
    rng = np.random.default_rng(0)
    J_regressor = rng.random((14, 60))
    J_regressor /= J_regressor.sum(1, keepdims=True)
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), J_regressor)
