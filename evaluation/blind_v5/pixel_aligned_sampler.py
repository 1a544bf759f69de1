import torch
import torch.nn.functional as F
from torch import nn


class PixelAlignedSampler(nn.Module):
    """Samples image features at the projections of 3D query points (PIFu-style)."""

    def __init__(self, feat_dim: int = 32, out_dim: int = 16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(feat_dim + 1, 64), nn.ReLU(), nn.Linear(64, out_dim))

    def forward(self, points_3d, feats, extrinsics, intrinsics):
        B, N, _ = points_3d.shape
        H, W = feats.shape[-2:]
        points_homo = torch.cat(
            [points_3d, torch.ones(B, N, 1, device=points_3d.device)], dim=-1  # expect: DTL001
        )
        points_cam = torch.matmul(
            points_homo,
            extrinsics.transpose(-1, -2),  # expect: DTL002
        )[..., :3]
        depth = points_cam[..., 2:3].clamp(min=1e-4)
        uvw = torch.matmul(points_cam, intrinsics.transpose(-1, -2))  # expect: DTL002
        uv = uvw[..., :2] / uvw[..., 2:3]
        scale = torch.tensor([W - 1, H - 1], device=uv.device)  # lookalike: int64 literal in elementwise division keeps bf16
        grid = (uv / scale * 2 - 1).unsqueeze(2)
        sampled = F.grid_sample(feats, grid, align_corners=True).squeeze(-1).transpose(1, 2)
        return self.mlp(torch.cat([sampled, depth], dim=-1))


def example():
    torch.manual_seed(0)
    model = PixelAlignedSampler().to(torch.bfloat16)
    B, N = 2, 64
    points = (torch.rand(B, N, 3) * 2 - 1 + torch.tensor([0.0, 0.0, 4.0])).to(torch.bfloat16)
    feats = torch.randn(B, 32, 24, 32, dtype=torch.bfloat16)
    extr = torch.eye(4).expand(B, 4, 4).clone()
    intr = torch.tensor([[30.0, 0.0, 16.0], [0.0, 30.0, 12.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3).clone()
    return model, (points, feats, extr, intr)
