"""DETR3D feature sampling with camera matrices gathered from the image metas."""
from typing import Dict, List

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def feature_sampling(mlvl_feats: List[torch.Tensor], reference_points: torch.Tensor, pc_range, img_metas: List[Dict]):
    lidar2img = []
    for img_meta in img_metas:
        lidar2img.append(img_meta["lidar2img"])
    lidar2img = np.asarray(lidar2img)
    lidar2img = torch.from_numpy(lidar2img).to(reference_points.device)  # expect: DTL004
    reference_points = reference_points.clone()
    for i in range(3):
        reference_points[..., i] = reference_points[..., i] * (pc_range[i + 3] - pc_range[i]) + pc_range[i]
    reference_points = torch.cat((reference_points, torch.ones_like(reference_points[..., :1])), -1)
    B, num_query = reference_points.shape[:2]
    num_cam = lidar2img.size(1)
    reference_points = reference_points.view(B, 1, num_query, 4).repeat(1, num_cam, 1, 1).unsqueeze(-1)
    reference_points_cam = torch.matmul(
        lidar2img.view(B, num_cam, 1, 4, 4),  # expect: DTL002
        reference_points,
    ).squeeze(-1)
    eps = 1e-5
    mask = reference_points_cam[..., 2:3] > eps
    uv = reference_points_cam[..., 0:2] / torch.maximum(reference_points_cam[..., 2:3], torch.ones_like(reference_points_cam[..., 2:3]) * eps)
    uv = (uv / 64.0 - 0.5) * 2
    feat = mlvl_feats[0]
    N, C, H, W = feat.shape[1:]
    sampled = F.grid_sample(feat.view(B * N, C, H, W), uv.view(B * N, num_query, 1, 2), align_corners=False)
    return sampled.view(B, N, C, num_query) * mask.view(B, N, 1, num_query)


class Detr3DCrossAttn(nn.Module):
    def __init__(self, embed_dims: int = 32, num_query: int = 20, pc_range=(-51.2, -51.2, -5.0, 51.2, 51.2, 3.0)):
        super().__init__()
        self.pc_range = pc_range
        self.query = nn.Embedding(num_query, embed_dims)
        self.reference_points = nn.Linear(embed_dims, 3)
        self.output_proj = nn.Linear(embed_dims, embed_dims)

    def forward(self, mlvl_feats: List[torch.Tensor], img_metas: List[Dict]) -> torch.Tensor:
        B = mlvl_feats[0].shape[0]
        query = self.query.weight[None].expand(B, -1, -1)
        ref = self.reference_points(query).sigmoid()
        sampled = feature_sampling(mlvl_feats, ref, self.pc_range, img_metas)
        return self.output_proj(sampled.sum(1).transpose(1, 2)) + query


def example():
    model = Detr3DCrossAttn().to(torch.bfloat16)
    feats = [torch.randn(1, 2, 32, 8, 16, dtype=torch.bfloat16)]
    l2i = np.eye(4)
    l2i[0, 0] = l2i[1, 1] = 50.0
    metas = [{"lidar2img": [l2i, l2i]}]
    return model, (feats, metas)
