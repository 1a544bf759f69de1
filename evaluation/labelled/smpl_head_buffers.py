import numpy as np
import torch
import torch.nn as nn


class SMPLHead(nn.Module):
    def __init__(self, regressor_path: str, dim: int = 1024):
        super().__init__()
        regressor = torch.from_numpy(np.load(regressor_path)).float()  # lookalike: __init__, registered below
        self.register_buffer("J_regressor", regressor, persistent=False)
        self.register_buffer("template", torch.zeros(6890, 3))  # lookalike: registered buffer
        self.delta = nn.Linear(dim, 6890 * 3)

    def forward(self, feat):
        verts = self.template + self.delta(feat).view(-1, 6890, 3)
        joints = torch.einsum("bvc,jv->bjc", verts, self.J_regressor)
        return verts, joints
