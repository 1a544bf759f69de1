import torch
from torch import nn


class WorldPointProjector(nn.Module):
    """Projects predicted world points with P = K [R | t], built from the camera values only."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.point_head = nn.Linear(dim, 3)

    def forward(self, feats, K, R, t):
        pts = self.point_head(feats)
        Rt = torch.cat([R, t[..., None]], dim=-1)  # lookalike: camera value built from cameras
        P = K @ Rt  # lookalike: camera-only product
        pts_h = torch.cat([pts, torch.ones_like(pts[..., :1])], dim=-1)
        uvw = pts_h @ P.to(pts_h.dtype).transpose(1, 2)
        return uvw[..., :2] / uvw[..., 2:].abs().clamp(min=1e-3)


def example():
    torch.manual_seed(0)
    model = WorldPointProjector().to(torch.bfloat16)
    feats = torch.randn(2, 16, 32, dtype=torch.bfloat16)
    K = torch.tensor([[80.0, 0.0, 40.0], [0.0, 80.0, 30.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3).clone()
    R = torch.eye(3).expand(2, 3, 3).clone()
    t = torch.tensor([[0.0, 0.0, 4.0], [0.2, 0.1, 5.0]])
    return model, (feats, K, R, t)
