"""Regress body joints from predicted mesh vertices with the SMPL joint regressor.

The regressor matrix ships as a dense NumPy array (24 x V) next to the model file.
"""

import numpy as np
import torch
import torch.nn as nn


class VertexDecoder(nn.Module):
    def __init__(self, latent_dim: int = 32, num_verts: int = 48, joint_regressor=None):
        super().__init__()
        self.num_verts = num_verts
        self.decoder = nn.Sequential(nn.Linear(latent_dim, 64), nn.ReLU(), nn.Linear(64, num_verts * 3))
        if joint_regressor is None:
            rng = np.random.default_rng(0)
            joint_regressor = rng.random((24, num_verts))
            joint_regressor /= joint_regressor.sum(axis=1, keepdims=True)
        self.joint_regressor = joint_regressor

    def forward(self, latent):
        vertices = self.decoder(latent).view(-1, self.num_verts, 3)
        J_regressor = torch.from_numpy(self.joint_regressor).to(latent.device)  # expect: DTL004
        joints = torch.einsum("jv,bvc->bjc", J_regressor, vertices)
        return vertices, joints


def example():
    model = VertexDecoder().to(torch.bfloat16)
    return model, (torch.randn(2, 32, dtype=torch.bfloat16),)
