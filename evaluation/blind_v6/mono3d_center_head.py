"""Monocular 3D detection head: regress object centres in camera space and project them to pixels."""
from typing import Dict

import torch
import torch.nn as nn


class Mono3DCenterHead(nn.Module):
    def __init__(self, in_ch: int = 32, num_queries: int = 10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, in_ch, 3, stride=4, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.center = nn.Linear(in_ch, num_queries * 3)
        self.num_queries = num_queries

    def forward(self, batch: Dict[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
        feats = self.backbone(batch["img"])
        B = feats.shape[0]
        centers = self.center(self.pool(feats).flatten(1)).view(B, self.num_queries, 3)
        depth = centers[..., 2:].exp()
        centers_cam = torch.cat([centers[..., :2] * depth, depth], dim=-1)
        proj = torch.bmm(
            centers_cam,
            batch["intrinsics"].transpose(1, 2),  # expect: DTL002
        )
        uv = proj[..., :2] / proj[..., 2:].clamp(min=1e-3)
        return {"centers_3d": centers_cam, "centers_2d": uv}


def example():
    head = Mono3DCenterHead().to(torch.bfloat16)
    K = torch.tensor([[700.0, 0.0, 320.0], [0.0, 700.0, 180.0], [0.0, 0.0, 1.0]])
    batch = {"img": torch.randn(2, 3, 32, 64, dtype=torch.bfloat16), "intrinsics": K.expand(2, 3, 3).contiguous()}
    return head, (batch,)
