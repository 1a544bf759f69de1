"""DETR3D/BEVFormer-style sampling of multi-camera features at projected 3D reference points."""
from typing import Dict

import torch
import torch.nn as nn
import torch.nn.functional as F


class ReferencePointSampler(nn.Module):
    def __init__(self, embed_dims: int = 32, num_query: int = 50, pc_range=(-51.2, -51.2, -5.0, 51.2, 51.2, 3.0)):
        super().__init__()
        self.pc_range = pc_range
        self.query_embedding = nn.Embedding(num_query, embed_dims)
        self.reference_points = nn.Linear(embed_dims, 3)
        self.out_proj = nn.Linear(embed_dims, embed_dims)

    def forward(self, img_feats: torch.Tensor, batch: Dict[str, torch.Tensor]) -> torch.Tensor:
        B, N, C, H, W = img_feats.shape
        query = self.query_embedding.weight
        ref = self.reference_points(query).sigmoid()  # (Q, 3) in [0, 1]
        pc = self.pc_range
        ref = torch.stack([ref[:, i] * (pc[i + 3] - pc[i]) + pc[i] for i in range(3)], dim=-1)
        ref = torch.cat([ref, torch.ones_like(ref[:, :1])], dim=-1)  # lookalike: *_like factory
        ref = ref[None, None, :, :, None].expand(B, N, -1, -1, -1)
        pts_cam = torch.matmul(
            batch["lidar2img"][:, :, None],  # expect: DTL002
            ref,
        ).squeeze(-1)
        eps = 1e-5
        valid = pts_cam[..., 2:3] > eps
        uv = pts_cam[..., :2] / torch.clamp(pts_cam[..., 2:3], min=eps)
        uv = uv / uv.new_tensor([W * 8.0, H * 8.0]) * 2.0 - 1.0  # lookalike: new_tensor
        sampled = F.grid_sample(img_feats.flatten(0, 1), uv.flatten(0, 1)[:, :, None], align_corners=False)
        sampled = sampled.view(B, N, C, -1) * valid.squeeze(-1)[:, :, None]
        return self.out_proj(sampled.sum(1).transpose(1, 2) + query)


def example():
    model = ReferencePointSampler().to(torch.bfloat16)
    B, N = 1, 2
    feats = torch.randn(B, N, 32, 8, 16, dtype=torch.bfloat16)
    lidar2img = torch.eye(4).repeat(B, N, 1, 1)
    lidar2img[..., 0, 0] = lidar2img[..., 1, 1] = 100.0
    batch = {"img": torch.zeros(B, N, 3, 64, 128), "lidar2img": lidar2img}
    return model, (feats, batch)
