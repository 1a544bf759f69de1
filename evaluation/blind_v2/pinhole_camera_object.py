"""Silhouette-aligned keypoint loss using a camera object provided by the renderer config."""

from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class PinholeCamera:
    K: torch.Tensor  # (3, 3)
    R: torch.Tensor  # (3, 3) world-to-camera rotation
    t: torch.Tensor  # (3,) world-to-camera translation
    width: int
    height: int


class CameraSpaceHead(nn.Module):
    def __init__(self, dim: int = 32, num_kpts: int = 10):
        super().__init__()
        self.num_kpts = num_kpts
        self.head = nn.Linear(dim, num_kpts * 3)

    def forward(self, feats, cam: PinholeCamera):
        world = self.head(feats).view(-1, self.num_kpts, 3)
        cam_pts = world @ cam.R.T + cam.t  # expect: DTL002
        uvw = cam_pts @ cam.K.T  # expect: DTL002
        uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)
        size = uv.new_tensor([cam.width, cam.height])
        return uv / size * 2 - 1


def example():
    head = CameraSpaceHead().to(torch.bfloat16)
    cam = PinholeCamera(
        K=torch.tensor([[80.0, 0.0, 32.0], [0.0, 80.0, 24.0], [0.0, 0.0, 1.0]]),
        R=torch.eye(3),
        t=torch.tensor([0.0, 0.0, 3.0]),
        width=64,
        height=48,
    )
    return head, (torch.randn(2, 32, dtype=torch.bfloat16), cam)
