import torch
import torch.nn as nn


class BEVPointSampler(nn.Module):
    """BEVFormer-style: lift BEV query pillars to 3D points and project them into each camera."""

    def __init__(self, dim: int = 32, num_points: int = 4):
        super().__init__()
        self.num_points = num_points
        self.ref_head = nn.Linear(dim, num_points * 3)
        self.pc_range = [-10.0, -10.0, -3.0, 10.0, 10.0, 3.0]

    def forward(self, bev_queries, lidar2imgs, img_shape: tuple):
        B, Q, _ = bev_queries.shape
        ref = self.ref_head(bev_queries).sigmoid().view(B, Q * self.num_points, 3)
        lo, hi = self.pc_range[:3], self.pc_range[3:]
        ref = torch.stack([ref[..., i] * (hi[i] - lo[i]) + lo[i] for i in range(3)], dim=-1)
        ref = torch.cat([ref, torch.ones_like(ref[..., :1])], dim=-1)  # lookalike: *_like
        num_cam = lidar2imgs.shape[1]
        ref = ref[:, None].expand(B, num_cam, -1, -1)
        ref_cam = torch.matmul(
            lidar2imgs[:, :, None],  # expect: DTL002
            ref[..., None],
        ).squeeze(-1)
        eps = 1e-5
        bev_mask = ref_cam[..., 2:3] > eps
        uv = ref_cam[..., :2] / torch.clamp(ref_cam[..., 2:3], min=eps)
        uv = uv / uv.new_tensor([img_shape[1], img_shape[0]])
        bev_mask = bev_mask & (uv > 0).all(-1, keepdim=True) & (uv < 1).all(-1, keepdim=True)
        return uv, bev_mask


def example():
    model = BEVPointSampler().to(torch.bfloat16)
    B, ncam = 1, 2
    K = torch.tensor([[50.0, 0, 32, 0], [0, 50.0, 24, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    lidar2imgs = torch.stack([K, K @ torch.diag(torch.tensor([-1.0, 1.0, -1.0, 1.0]))])[None]
    return model, (torch.randn(B, 20, 32, dtype=torch.bfloat16), lidar2imgs, (48, 64))
