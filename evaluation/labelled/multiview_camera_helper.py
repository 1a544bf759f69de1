import torch
import torch.nn as nn
from torch import Tensor


def get_intrinsics(batch: dict[str, Tensor], view: int) -> Tensor:
    """Dataset stores 4x4 intrinsics per view; return the 3x3 block."""
    return batch["intrinsics"][:, view, :3, :3]


class MultiViewDepthHead(nn.Module):
    def __init__(self, dim: int = 128):
        super().__init__()
        self.xyz = nn.Linear(dim, 3)

    def forward(self, batch, view: int = 0):
        xyz = self.xyz(batch["tokens"])
        K = get_intrinsics(batch, view)
        uvw = xyz @ K.mT  # expect: DTL002
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-4)
