"""Crop/resize augmentation applied consistently to features and camera parameters."""

from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def adjust_intrinsics(K, crop_xy: Tuple[float, float], scale: float):
    """K: (B, 3, 3) -> intrinsics after cropping at crop_xy (pixels) and resizing by scale."""
    shift = torch.zeros(K.shape[0], 3, 3, device=K.device)
    shift[:, 0, 2], shift[:, 1, 2] = crop_xy
    S = torch.diag(torch.tensor([scale, scale, 1.0], device=K.device)).expand_as(K)
    return S @ (K - shift)


def to_4x4(extrinsics):
    """extrinsics: (B, 3, 4) -> (B, 4, 4)."""
    bottom = torch.tensor([0.0, 0.0, 0.0, 1.0], device=extrinsics.device).expand(extrinsics.shape[0], 1, 4)
    return torch.cat([extrinsics, bottom], dim=1)


class CroppedProjection(nn.Module):
    def __init__(self, dim: int = 8, scale: float = 0.5):
        super().__init__()
        self.scale = scale
        self.pts = nn.Linear(dim, 3)

    def forward(self, feats, K, extrinsics, crop_xy: Tuple[float, float]):
        """feats: (B, N, C); K: (B, 3, 3); extrinsics: (B, 3, 4); crop_xy: crop offset in pixels."""
        K_aug = adjust_intrinsics(K, crop_xy, self.scale)
        E = to_4x4(extrinsics)
        P = (K_aug @ E[:, :3]).to(feats.dtype)
        pts_h = F.pad(self.pts(feats), [0, 1], value=1.0)
        uvw = pts_h @ P.transpose(1, 2)
        return uvw[..., :2] / (uvw[..., 2:].abs() + 1e-3)


def example():
    B = 2
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 32.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    extr = torch.cat([torch.eye(3), torch.tensor([[0.0], [0.0], [4.0]])], dim=1).expand(B, 3, 4)
    crop = (8.0, 4.0)
    return CroppedProjection().to(torch.bfloat16), (torch.randn(B, 5, 8, dtype=torch.bfloat16), K, extr, crop)
