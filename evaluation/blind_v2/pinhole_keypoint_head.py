"""Keypoint head for a single fixed camera: projects predicted 3D keypoints to pixels."""

import torch
import torch.nn as nn


class PinholeKeypointHead(nn.Module):
    def __init__(self, in_dim: int = 32, num_kpts: int = 8, fx: float = 400.0, fy: float = 400.0,
                 cx: float = 160.0, cy: float = 120.0):
        super().__init__()
        self.fx, self.fy, self.cx, self.cy = fx, fy, cx, cy
        self.num_kpts = num_kpts
        self.regressor = nn.Linear(in_dim, num_kpts * 3)

    def project(self, pts):
        K = torch.tensor(  # expect: DTL001
            [[self.fx, 0.0, self.cx], [0.0, self.fy, self.cy], [0, 0, 1]],
            device=pts.device,
        )
        uvw = pts @ K.T
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)

    def forward(self, feats):
        pts = self.regressor(feats).view(-1, self.num_kpts, 3)
        pts = torch.cat([pts[..., :2], pts[..., 2:].exp() + 1.0], dim=-1)  # keep z positive
        return self.project(pts)


def example():
    head = PinholeKeypointHead().to(torch.bfloat16)
    return head, (torch.randn(4, 32, dtype=torch.bfloat16),)
