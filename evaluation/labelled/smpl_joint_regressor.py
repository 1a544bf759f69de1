import numpy as np
import torch
import torch.nn as nn


class SMPLJointRegressor(nn.Module):
    """Regresses H36M joints from predicted mesh vertices."""

    def __init__(self, regressor_path: str = "J_regressor_h36m.npy", dim: int = 1024):
        super().__init__()
        self.regressor_path = regressor_path
        self.vert_head = nn.Linear(dim, 6890 * 3)

    def forward(self, feat):
        vertices = self.vert_head(feat).view(-1, 6890, 3)
        J_regressor = torch.from_numpy(np.load(self.regressor_path)).to(vertices.device)  # expect: DTL004
        joints = torch.einsum("bvc,jv->bjc", vertices, J_regressor)
        return vertices, joints
