"""Lift a predicted depth map to a world-space point cloud and fuse per-point features."""

import torch
import torch.nn as nn


class DepthToPointCloud(nn.Module):
    def __init__(self, feat_dim: int = 16):
        super().__init__()
        self.depth_head = nn.Conv2d(feat_dim, 1, 1)
        self.point_mlp = nn.Linear(3 + feat_dim, feat_dim)

    def forward(self, feats, pixel_coords, K, w2c):
        """feats: (B, C, H, W); pixel_coords: (B, H*W, 3) homogeneous pixel centres."""
        B, C, H, W = feats.shape
        depth = torch.nn.functional.softplus(self.depth_head(feats)).flatten(1)  # (B, HW)
        rays = pixel_coords @ K.inverse().transpose(1, 2)  # expect: DTL002
        pts_cam = rays * depth[..., None]
        pts_cam_h = torch.cat([pts_cam, torch.ones_like(pts_cam[..., :1])], dim=-1)
        cam_to_world = torch.linalg.inv(w2c)
        pts_world = (pts_cam_h @ cam_to_world.transpose(1, 2))[..., :3]  # expect: DTL002
        point_feats = feats.flatten(2).transpose(1, 2)
        return self.point_mlp(torch.cat([pts_world, point_feats], dim=-1))


def example():
    B, C, H, W = 1, 16, 4, 5
    model = DepthToPointCloud(C).to(torch.bfloat16)
    feats = torch.randn(B, C, H, W, dtype=torch.bfloat16)
    ys, xs = torch.meshgrid(torch.arange(H) + 0.5, torch.arange(W) + 0.5, indexing="ij")
    pix = torch.stack([xs, ys, torch.ones_like(xs)], dim=-1).reshape(1, H * W, 3).to(torch.bfloat16)
    K = torch.tensor([[[50.0, 0.0, 2.5], [0.0, 50.0, 2.0], [0.0, 0.0, 1.0]]])
    w2c = torch.eye(4)[None].clone()
    w2c[:, 2, 3] = 3.0
    return model, (feats, pix, K, w2c)
