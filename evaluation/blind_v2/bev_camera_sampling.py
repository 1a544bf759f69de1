"""Multi-camera feature sampling for BEV queries (BEVFormer / PETR style).

``lidar2imgs``: (B, N_cam, 4, 4) projection from the ego/LiDAR frame to each image.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class CameraFeatureSampler(nn.Module):
    def __init__(self, embed_dims: int = 16, image_size=(32, 48), eps: float = 1e-5):
        super().__init__()
        self.image_size = image_size
        self.eps = eps
        self.out_proj = nn.Linear(embed_dims, embed_dims)

    def point_sampling(self, reference_points, lidar2imgs):
        """reference_points: (B, Q, 3) in metres -> normalized image coords (B, N, Q, 2), mask."""
        ref = torch.cat([reference_points, torch.ones_like(reference_points[..., :1])], dim=-1)
        num_cam = lidar2imgs.shape[1]
        ref = ref[:, None, :, :, None].expand(-1, num_cam, -1, -1, -1)  # (B, N, Q, 4, 1)
        cam_pts = torch.matmul(lidar2imgs[:, :, None], ref).squeeze(-1)  # expect: DTL002
        mask = cam_pts[..., 2:3] > self.eps
        uv = cam_pts[..., :2] / torch.clamp(cam_pts[..., 2:3], min=self.eps)
        h, w = self.image_size
        uv = torch.stack([uv[..., 0] / w, uv[..., 1] / h], dim=-1)
        mask = mask & (uv > 0).all(-1, keepdim=True) & (uv < 1).all(-1, keepdim=True)
        return uv, mask.squeeze(-1)

    def forward(self, query_pos, img_feats, lidar2imgs):
        """query_pos: (B, Q, 3); img_feats: (B, N, C, h, w)."""
        B, N, C, h, w = img_feats.shape
        uv, mask = self.point_sampling(query_pos, lidar2imgs)
        grid = (uv * 2.0 - 1.0).flatten(0, 1)[:, :, None]  # (B*N, Q, 1, 2)
        sampled = F.grid_sample(img_feats.flatten(0, 1), grid, align_corners=False)
        sampled = sampled.view(B, N, C, -1).permute(0, 1, 3, 2)  # (B, N, Q, C)
        weights = mask[..., None].to(sampled.dtype)
        fused = (sampled * weights).sum(1) / weights.sum(1).clamp(min=1.0)
        return self.out_proj(fused)


class PositionEmbedding3D(nn.Module):
    """PETR-style 3D position embedding from camera frustum points."""

    def __init__(self, depth_num: int = 4, embed_dims: int = 16):
        super().__init__()
        self.depth_num = depth_num
        self.encoder = nn.Sequential(nn.Linear(3 * depth_num, embed_dims), nn.ReLU(), nn.Linear(embed_dims, embed_dims))

    def forward(self, frustum, img2lidars):
        """frustum: (B, N, HW, D, 4, 1) homogeneous (u*d, v*d, d, 1) from the depth head."""
        B, N, HW, D = frustum.shape[:4]
        coords3d = torch.matmul(img2lidars[:, :, None, None], frustum).squeeze(-1)[..., :3]  # expect: DTL002
        return self.encoder(coords3d.reshape(B, N, HW, D * 3))


def example():
    B, N, Q, C = 1, 2, 6, 16
    sampler = CameraFeatureSampler(C).to(torch.bfloat16)
    query_pos = (torch.rand(B, Q, 3) * 10 - 5).to(torch.bfloat16)
    img_feats = torch.randn(B, N, C, 4, 6, dtype=torch.bfloat16)
    lidar2imgs = torch.eye(4).repeat(B, N, 1, 1)
    return sampler, (query_pos, img_feats, lidar2imgs)


def example_position_embedding():
    B, N, HW, D = 1, 2, 5, 4
    pe = PositionEmbedding3D(D).to(torch.bfloat16)
    frustum = torch.rand(B, N, HW, D, 4, 1, dtype=torch.bfloat16)
    img2lidars = torch.linalg.inv(torch.eye(4) * 2.0).repeat(B, N, 1, 1)
    return pe, (frustum, img2lidars)
