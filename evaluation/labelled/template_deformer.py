import numpy as np
import torch
import torch.nn as nn


class TemplateDeformer(nn.Module):
    """Deforms a template mesh loaded from NumPy; every NumPy value is cast at creation."""

    def __init__(self, template_path: str, dim: int = 256):
        super().__init__()
        self.template_path = template_path
        self.offset = nn.Linear(dim, 3)

    def forward(self, feat):
        template = torch.from_numpy(np.load(self.template_path)).to(feat)  # lookalike: .to(x) right after creation
        verts = template[None] + self.offset(feat)[:, None]
        kp_ids = torch.from_numpy(np.array([0, 2, 1, 4, 3])).to(feat.device)  # lookalike: integer index array
        keypoints = verts[:, kp_ids]
        w = torch.tensor(np.linspace(1.0, 0.1, 5), dtype=feat.dtype, device=feat.device)  # lookalike: dtype given
        return verts, (keypoints * w[None, :, None]).sum(dim=1)
