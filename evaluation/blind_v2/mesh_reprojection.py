"""Mesh-to-image reprojection used by the silhouette/keypoint refinement stage."""

import torch
import torch.nn as nn


class MeshReprojection(nn.Module):
    def __init__(self, num_verts: int = 40, feat_dim: int = 16):
        super().__init__()
        self.offsets = nn.Linear(feat_dim, num_verts * 3)
        self.num_verts = num_verts

    def project(self, points_3d, intrinsics, extrinsics):
        B, N, _ = points_3d.shape
        points_homo = torch.cat(
            [points_3d, torch.ones(B, N, 1, device=points_3d.device, dtype=points_3d.dtype)], dim=-1
        )
        points_cam = torch.matmul(
            points_homo,
            extrinsics.to(points_homo.dtype).transpose(-1, -2)
        )[..., :3]
        points_2d_homo = torch.matmul(points_cam, intrinsics.to(points_cam.dtype).transpose(-1, -2))
        return points_2d_homo[..., :2] / points_2d_homo[..., 2:3].clamp(min=1e-4)

    def forward(self, template, feats, intrinsics, extrinsics):
        """template: (B, V, 3) mesh in world space; feats: (B, C) image features."""
        verts = template + 0.01 * self.offsets(feats).view(-1, self.num_verts, 3)
        return self.project(verts, intrinsics, extrinsics)


def example():
    B, V = 2, 40
    model = MeshReprojection(V).to(torch.bfloat16)
    template = (torch.randn(B, V, 3) * 0.1 + torch.tensor([0.0, 0.0, 3.0])).to(torch.bfloat16)
    feats = torch.randn(B, 16, dtype=torch.bfloat16)
    intrinsics = torch.tensor([[300.0, 0.0, 128.0], [0.0, 300.0, 128.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    extrinsics = torch.eye(4, dtype=torch.float64).expand(B, 4, 4)
    return model, (template, feats, intrinsics, extrinsics)
