"""DETR3D projection of reference points with lidar2img built by new_tensor from the metas."""
from typing import Dict, List

import numpy as np
import torch
import torch.nn as nn


class Detr3DProjector(nn.Module):
    def __init__(self, embed_dims: int = 32, num_query: int = 16):
        super().__init__()
        self.query = nn.Embedding(num_query, embed_dims)
        self.reference_points = nn.Linear(embed_dims, 3)

    def forward(self, query_feat: torch.Tensor, img_metas: List[Dict]) -> torch.Tensor:
        ref = self.reference_points(self.query.weight + query_feat).sigmoid()  # (B, Q, 3)
        lidar2img = np.asarray([meta["lidar2img"] for meta in img_metas])  # (B, N, 4, 4)
        lidar2img = ref.new_tensor(lidar2img)  # lookalike: new_tensor casts to the activation dtype
        B, N = lidar2img.shape[:2]
        ref = torch.cat([ref * 100.0 - 50.0, torch.ones_like(ref[..., :1])], dim=-1)
        ref = ref[:, None, :, :, None].expand(B, N, -1, -1, -1)
        cam = torch.matmul(lidar2img[:, :, None], ref).squeeze(-1)  # lookalike: camera already in the activation dtype
        return cam[..., :2] / cam[..., 2:3].clamp(min=1e-5)


def example():
    m = Detr3DProjector().to(torch.bfloat16)
    l2i = np.eye(4)
    l2i[0, 0] = l2i[1, 1] = 40.0
    metas = [{"lidar2img": [l2i, l2i, l2i]}, {"lidar2img": [l2i, l2i, l2i]}]
    return m, (torch.randn(2, 16, 32, dtype=torch.bfloat16), metas)
