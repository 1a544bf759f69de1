import torch
import torch.nn as nn


class MultiViewProjector(nn.Module):
    """Projects predicted points into the views; camera matrices are cast to the activation dtype."""

    def __init__(self, dim: int = 128):
        super().__init__()
        self.xyz = nn.Linear(dim, 3)

    def forward(self, feats, batch):
        xyz = self.xyz(feats)
        xyz_h = torch.cat([xyz, torch.ones_like(xyz[..., :1])], dim=-1)
        w2c = batch["w2c"].to(xyz_h.dtype)  # lookalike: camera cast before the matmul
        cam = xyz_h @ w2c.transpose(-1, -2)
        K = batch["intrinsics"].to(cam)  # lookalike: .to(x)
        uvw = cam[..., :3] @ K.mT
        K_src_inv = torch.linalg.inv(batch["intrinsics_src"]).type_as(uvw)  # lookalike: cast after inv
        back = uvw @ K_src_inv.mT
        return uvw[..., :2] / uvw[..., 2:], back
