import torch
import torch.nn as nn


class BEVPointSampler(nn.Module):
    """BEVFormer-style: project learned 3D reference points into every camera."""

    def __init__(self, num_query: int = 2500, pc_range=(-51.2, -51.2, -5.0, 51.2, 51.2, 3.0)):
        super().__init__()
        self.ref_points = nn.Embedding(num_query, 3)
        self.pc_range = pc_range

    def forward(self, lidar2img, eps: float = 1e-5):
        lo, hi = self.pc_range[:3], self.pc_range[3:]
        ref = self.ref_points.weight.sigmoid()
        ref = torch.stack([ref[:, i] * (hi[i] - lo[i]) + lo[i] for i in range(3)], dim=-1)
        ref_h = torch.cat([ref, torch.ones_like(ref[:, :1])], dim=-1)  # lookalike: *_like
        cam_pts = torch.matmul(
            lidar2img[:, :, None],  # expect: DTL002
            ref_h[None, None, :, :, None],
        ).squeeze(-1)
        depth = cam_pts[..., 2:3]
        mask = depth > eps
        uv = cam_pts[..., :2] / depth.clamp(min=eps)
        return uv, mask
