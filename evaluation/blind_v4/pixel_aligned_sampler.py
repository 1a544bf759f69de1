import torch
import torch.nn as nn
import torch.nn.functional as F


class PixelAlignedSampler(nn.Module):
    """Samples image features at the projections of predicted 3D points."""

    def __init__(self, feat_dim: int = 32, hidden: int = 64):
        super().__init__()
        self.point_mlp = nn.Linear(3, hidden)
        self.fuse = nn.Linear(hidden + feat_dim, hidden)

    def project(self, points_3d, extrinsics, intrinsics):
        B, N, _ = points_3d.shape
        ones = torch.ones(B, N, 1, device=points_3d.device)  # expect: DTL001
        points_homo = torch.cat([points_3d, ones], dim=-1)
        points_cam = torch.matmul(
            points_homo,
            extrinsics.transpose(-1, -2),  # expect: DTL002
        )[..., :3]
        uvz = torch.matmul(points_cam, intrinsics.transpose(-1, -2))  # expect: DTL002
        return uvz[..., :2] / uvz[..., 2:].clamp(min=1e-4)

    def forward(self, feat_map, points_3d, extrinsics, intrinsics):
        H, W = feat_map.shape[-2:]
        uv = self.project(points_3d, extrinsics, intrinsics)
        grid = torch.stack([uv[..., 0] / (W - 1), uv[..., 1] / (H - 1)], dim=-1) * 2 - 1
        sampled = F.grid_sample(feat_map, grid[:, :, None], align_corners=True)[..., 0]
        h = self.point_mlp(points_3d)
        return self.fuse(torch.cat([h, sampled.transpose(1, 2)], dim=-1))


def example():
    model = PixelAlignedSampler().to(torch.bfloat16)
    B, N = 2, 64
    feat_map = torch.randn(B, 32, 24, 32, dtype=torch.bfloat16)
    points_3d = (torch.rand(B, N, 3) - 0.5 + torch.tensor([0.0, 0.0, 3.0])).to(torch.bfloat16)
    extrinsics = torch.eye(4).expand(B, 4, 4).contiguous()
    intrinsics = torch.tensor([[30.0, 0, 16], [0, 30.0, 12], [0, 0, 1]]).expand(B, 3, 3).contiguous()
    return model, (feat_map, points_3d, extrinsics, intrinsics)
