"""Monocular 3D detection: project predicted 3D centers with the (possibly 3x3) cam2img."""

import torch
import torch.nn as nn


def points_cam2img(points_3d, cam2img, with_depth: bool = False):
    """points_3d: (N, 3) camera frame; cam2img: (3, 3), (3, 4) or (4, 4)."""
    d1, d2 = cam2img.shape[:2]
    if (d1, d2) != (4, 4):
        cam2img_4x4 = torch.eye(4, device=cam2img.device, dtype=cam2img.dtype)
        cam2img_4x4[:d1, :d2] = cam2img
        cam2img = cam2img_4x4
    points_4 = torch.cat([points_3d, points_3d.new_ones(points_3d.shape[0], 1)], dim=-1)
    point_2d = points_4 @ cam2img.T  # expect: DTL002
    point_2d_res = point_2d[:, :2] / point_2d[:, 2:3]
    if with_depth:
        return torch.cat([point_2d_res, point_2d[:, 2:3]], dim=-1)
    return point_2d_res


class CenterProjectionHead(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.center = nn.Linear(dim, 3)

    def forward(self, obj_feats, cam2img, gt_centers_2d):
        centers = self.center(obj_feats) + obj_feats.new_tensor([0.0, 0.0, 15.0])
        proj = points_cam2img(centers, cam2img, with_depth=True)
        return (proj[:, :2] - gt_centers_2d).abs().mean(), proj[:, 2]


def example():
    head = CenterProjectionHead().to(torch.bfloat16)
    cam2img = torch.tensor([[721.5, 0.0, 609.6], [0.0, 721.5, 172.9], [0.0, 0.0, 1.0]])
    gt = torch.rand(4, 2, dtype=torch.bfloat16) * 300
    return head, (torch.randn(4, 32, dtype=torch.bfloat16), cam2img, gt)
