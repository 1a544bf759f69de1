import numpy as np
import torch
import torch.nn as nn


class MeshToJoints(nn.Module):
    """Body-model joint regressor loaded from NumPy into a registered buffer."""

    def __init__(self, num_verts: int = 60, num_joints: int = 14, dim: int = 32):
        super().__init__()
        rng = np.random.default_rng(0)
        J = rng.random((num_joints, num_verts))
        J /= J.sum(1, keepdims=True)
        self.register_buffer("J_regressor", torch.from_numpy(J).float())  # lookalike: registered buffer
        self.vert_head = nn.Linear(dim, num_verts * 3)
        self.num_verts = num_verts

    def forward(self, feats):
        vertices = self.vert_head(feats).view(feats.shape[0], self.num_verts, 3)
        return torch.einsum("bvk,jv->bjk", vertices, self.J_regressor)


def example():
    model = MeshToJoints().to(torch.bfloat16)
    return model, (torch.randn(2, 32, dtype=torch.bfloat16),)
