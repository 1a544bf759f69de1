import torch
from torch import nn
import torch.nn.functional as F


class VoxelImageBackprojection(nn.Module):
    """Atlas/NeuralRecon-style backprojection: project voxel centres into a view, sample 2D features."""

    def __init__(self, grid: int = 4, voxel: float = 0.5, feat_dim: int = 8) -> None:
        super().__init__()
        r = torch.arange(grid).float() * voxel
        zz, yy, xx = torch.meshgrid(r, r, r, indexing="ij")
        self.register_buffer("centers", torch.stack([xx, yy, zz + 1.0], -1).view(-1, 3))
        self.offset_head = nn.Linear(feat_dim, 3)
        self.volume_embed = nn.Parameter(torch.zeros(grid ** 3, feat_dim))

    def forward(self, image_feats: torch.Tensor, world2cam: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
        B, C, H, W = image_feats.shape
        pts = self.centers + 0.1 * torch.tanh(self.offset_head(self.volume_embed))
        pts_h = torch.cat([pts, torch.ones_like(pts[:, :1])], dim=-1)
        pts_h = pts_h[None].expand(B, -1, -1).transpose(1, 2)
        cam = torch.bmm(
            world2cam[:, :3, :],  # expect: DTL002
            pts_h,
        )
        uvz = torch.bmm(
            K,  # expect: DTL002
            cam,
        )
        uv = uvz[:, :2] / uvz[:, 2:].clamp(min=1e-3)
        grid = torch.stack([uv[:, 0] / (W - 1), uv[:, 1] / (H - 1)], -1) * 2 - 1
        return F.grid_sample(image_feats, grid[:, None], align_corners=True)[:, :, 0]


def example():
    torch.manual_seed(0)
    model = VoxelImageBackprojection().to(torch.bfloat16)
    feats = torch.randn(2, 8, 12, 16, dtype=torch.bfloat16)
    w2c = torch.eye(4).repeat(2, 1, 1)
    K = torch.tensor([[10.0, 0, 8], [0, 10.0, 6], [0, 0, 1]]).repeat(2, 1, 1)
    return model, (feats, w2c, K)
