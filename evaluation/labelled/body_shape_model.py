import numpy as np
import torch
import torch.nn as nn


class BodyShapeModel(nn.Module):
    """SMPL-like shape blend shapes driven by predicted betas."""

    def __init__(self, model_path: str, num_betas: int = 10, dim: int = 2048):
        super().__init__()
        data = np.load(model_path)
        self.register_buffer("v_template", torch.from_numpy(data["v_template"]).float())  # lookalike: buffer
        self.shapedirs = torch.from_numpy(data["shapedirs"][..., :num_betas]).float()  # expect: DTL005
        self.faces = data["f"].astype(np.int64)  # lookalike: NumPy array attribute
        self.beta_head = nn.Linear(dim, num_betas)

    def forward(self, feat):
        betas = self.beta_head(feat)
        verts = self.v_template + torch.einsum("bl,vcl->bvc", betas, self.shapedirs)
        faces = torch.from_numpy(self.faces).to(feat.device)  # lookalike: integer faces used as indices
        tri = verts[:, faces]
        normals = torch.cross(tri[:, :, 1] - tri[:, :, 0], tri[:, :, 2] - tri[:, :, 0], dim=-1)
        return verts, normals
