import torch.nn.functional as F
from torch import Tensor


def project_world_points(pts: Tensor, proj_matrix: Tensor) -> Tensor:
    """pts: (N, 3) predicted world points; proj_matrix: (3, 4) = K [R | t]."""
    pts_h = F.pad(pts, (0, 1), value=1.0)
    uvw = F.linear(pts_h, proj_matrix)  # expect: DTL002
    return uvw[:, :2] / uvw[:, 2:]


def project_world_points_cast(pts: Tensor, proj_matrix: Tensor) -> Tensor:
    pts_h = F.pad(pts, (0, 1), value=1.0)
    uvw = F.linear(pts_h, proj_matrix.to(pts_h.dtype))  # lookalike: camera cast to the activation dtype
    return uvw[:, :2] / uvw[:, 2:]
