import torch
from torch import nn


def project_to_image(points: torch.Tensor, K: torch.Tensor, w2c: torch.Tensor):
    """World points (B, N, 3) -> pixels (B, N, 2) and depth; K (B, 3, 3), w2c (B, 4, 4)."""
    pts_h = torch.cat([points, torch.ones_like(points[..., :1])], dim=-1)  # lookalike: *_like takes the points' dtype
    pts_cam = torch.bmm(pts_h, w2c.transpose(1, 2))[..., :3]  # expect: DTL002
    uvz = torch.bmm(pts_cam, K.transpose(1, 2))  # expect: DTL002
    depth = uvz[..., 2:].clamp(min=1e-4)
    return uvz[..., :2] / depth, depth


class PointProjectionHead(nn.Module):
    def __init__(self, dim: int = 16, n_points: int = 8):
        super().__init__()
        self.n_points = n_points
        self.to_xyz = nn.Linear(dim, n_points * 3)

    def forward(self, feats: torch.Tensor, K: torch.Tensor, w2c: torch.Tensor) -> torch.Tensor:
        points = self.to_xyz(feats).view(feats.shape[0], self.n_points, 3)
        points = points + points.new_tensor([0.0, 0.0, 4.0])  # lookalike: new_tensor follows points
        uv, _ = project_to_image(points, K, w2c)
        return uv


def example():
    torch.manual_seed(0)
    model = PointProjectionHead().to(torch.bfloat16)
    feats = torch.randn(2, 16).to(torch.bfloat16)
    K = torch.tensor([[50.0, 0.0, 32.0], [0.0, 50.0, 24.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3).contiguous()
    w2c = torch.eye(4).expand(2, 4, 4).contiguous()
    return model, (feats, K, w2c)
