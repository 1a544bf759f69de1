"""Linear blend skinning."""

import torch
import torch.nn.functional as F


def linear_blend_skinning(vertices, lbs_weights, rel_transforms):
    """vertices: (B, V, 3), lbs_weights: (V, J), rel_transforms: (B, J, 4, 4) -> (B, V, 3)."""
    B, V = vertices.shape[:2]
    T = torch.einsum("vj,bjmn->bvmn", lbs_weights, rel_transforms)
    verts_h = F.pad(vertices, [0, 1], value=1.0)
    return torch.matmul(T, verts_h.unsqueeze(-1))[..., :3, 0]


def example():
    B, V, J = 2, 12, 4
    verts = torch.randn(B, V, 3, dtype=torch.bfloat16)
    weights = torch.softmax(torch.randn(V, J), dim=-1).to(torch.bfloat16)
    transforms = torch.eye(4, dtype=torch.bfloat16).repeat(B, J, 1, 1)
    return linear_blend_skinning, (verts, weights, transforms)
