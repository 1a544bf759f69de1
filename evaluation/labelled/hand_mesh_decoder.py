import torch
import torch.nn as nn
from torch import Tensor


def project(xyz: Tensor, K: Tensor) -> Tensor:
    """Pinhole projection of (B, N, 3) camera-space points with (B, 3, 3) intrinsics."""
    uvz = torch.einsum(
        "bij,bnj->bni",
        K,  # expect: DTL002
        xyz,
    )
    return uvz[..., :2] / uvz[..., 2:].clamp(min=1e-5)


class HandMeshDecoder(nn.Module):
    def __init__(self, dim: int = 256, num_verts: int = 778):
        super().__init__()
        self.num_verts = num_verts
        self.verts = nn.Linear(dim, num_verts * 3)

    def forward(self, feat, K):
        verts = self.verts(feat).view(-1, self.num_verts, 3)
        return verts, project(verts, K)  # lookalike: the matmul is inside project()
