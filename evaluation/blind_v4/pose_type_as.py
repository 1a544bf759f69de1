import torch
import torch.nn as nn


def apply_pose(points: torch.Tensor, R: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    R = R.type_as(points)  # lookalike: rotation cast to the points' dtype
    t = t.type_as(points)
    return points @ R.mT + t[..., None, :]


class CanonicalToScene(nn.Module):
    """Deforms canonical points with a learned offset field, then places them with the object pose."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.offset = nn.Sequential(nn.Linear(3 + dim, dim), nn.ReLU(), nn.Linear(dim, 3))

    def forward(self, canon_pts, code, R, t):
        code = code[:, None].expand(-1, canon_pts.shape[1], -1)
        pts = canon_pts + self.offset(torch.cat([canon_pts, code], dim=-1))
        return apply_pose(pts, R, t)


def example():
    model = CanonicalToScene().to(torch.bfloat16)
    R = torch.eye(3).repeat(2, 1, 1)
    t = torch.tensor([[0.0, 0.0, 2.0], [1.0, 0.0, 3.0]])
    return model, (torch.randn(2, 50, 3, dtype=torch.bfloat16), torch.randn(2, 32, dtype=torch.bfloat16), R, t)
