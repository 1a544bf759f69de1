import torch
from torch import nn


class BEVPointSampler(nn.Module):
    """BEVFormer-style spatial cross-attention sampling locations for each camera."""

    def __init__(self, embed_dims: int = 32, num_points: int = 4):
        super().__init__()
        self.num_points = num_points
        self.ref_head = nn.Linear(embed_dims, num_points * 3)
        self.pc_range = [-51.2, -51.2, -5.0, 51.2, 51.2, 3.0]

    def forward(self, bev_query, lidar2img, img_shape=(48, 64)):
        B, Q, _ = bev_query.shape
        ref = self.ref_head(bev_query).sigmoid().view(B, Q, self.num_points, 3)
        lo, hi = self.pc_range[:3], self.pc_range[3:]
        ref = torch.stack([ref[..., i] * (hi[i] - lo[i]) + lo[i] for i in range(3)], dim=-1)
        ref = torch.cat([ref, torch.ones_like(ref[..., :1])], dim=-1)  # lookalike: *_like follows ref
        num_cam = lidar2img.size(1)
        ref = ref.view(B, 1, Q * self.num_points, 4, 1).expand(B, num_cam, -1, 4, 1)
        cam_pts = torch.matmul(
            lidar2img.view(B, num_cam, 1, 4, 4),  # expect: DTL002
            ref,
        ).squeeze(-1)
        eps = 1e-5
        mask = cam_pts[..., 2:3] > eps
        uv = cam_pts[..., :2] / torch.maximum(cam_pts[..., 2:3], torch.ones_like(cam_pts[..., 2:3]) * eps)
        uv = uv / uv.new_tensor([img_shape[1], img_shape[0]])
        mask = mask & (uv > 0).all(-1, keepdim=True) & (uv < 1).all(-1, keepdim=True)
        return uv, mask


def example():
    torch.manual_seed(0)
    model = BEVPointSampler().to(torch.bfloat16)
    query = torch.randn(2, 50, 32, dtype=torch.bfloat16)
    lidar2img = torch.eye(4).expand(2, 6, 4, 4).clone()
    return model, (query, lidar2img)
