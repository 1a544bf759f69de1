import torch as th
import torch.nn as nn


class ReflectionDirectionHead(nn.Module):
    """Predicts view-space reflection directions and rotates them to world space."""

    def __init__(self, dim: int = 256):
        super().__init__()
        self.normal = nn.Linear(dim, 3)

    def forward(self, feat, view_dirs, c2w):
        n = nn.functional.normalize(self.normal(feat), dim=-1)
        refl = view_dirs - 2.0 * (view_dirs * n).sum(-1, keepdim=True) * n
        refl_world = th.bmm(refl, c2w[:, :3, :3].transpose(1, 2))  # expect: DTL002
        return nn.functional.normalize(refl_world, dim=-1)
