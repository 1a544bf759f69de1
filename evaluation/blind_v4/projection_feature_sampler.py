import torch
import torch.nn as nn
import torch.nn.functional as F


class ProjectionFeatureSampler(nn.Module):
    """Samples a feature map at the projections of 3D anchor points (camera @ camera, then cast)."""

    def __init__(self, dim: int = 16):
        super().__init__()
        self.anchor_head = nn.Linear(dim, 3)

    def forward(self, feats, anchor_feats, K, w2c):
        H, W = feats.shape[-2:]
        points = self.anchor_head(anchor_feats) + feats.new_tensor([0.0, 0.0, 4.0])
        P = K @ w2c[:, :3, :]  # lookalike: camera @ camera
        P = P.to(points.dtype)
        pts_h = torch.cat([points, torch.ones_like(points[..., :1])], dim=-1)
        uvw = pts_h @ P.mT
        uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)
        grid = uv / uv.new_tensor([W - 1, H - 1]) * 2 - 1
        return F.grid_sample(feats, grid[:, :, None], align_corners=True).squeeze(-1)


def example():
    model = ProjectionFeatureSampler().to(torch.bfloat16)
    K = torch.tensor([[20.0, 0, 12], [0, 20.0, 8], [0, 0, 1]]).expand(2, 3, 3).contiguous()
    w2c = torch.eye(4).repeat(2, 1, 1)
    feats = torch.randn(2, 16, 16, 24, dtype=torch.bfloat16)
    return model, (feats, torch.randn(2, 10, 16, dtype=torch.bfloat16), K, w2c)
