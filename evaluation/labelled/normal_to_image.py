import torch.nn as nn


class NormalToImage(nn.Module):
    """Rotates predicted camera-space normals to world space and projects surface points."""

    def __init__(self, dim: int = 128):
        super().__init__()
        self.normal_head = nn.Linear(dim, 3)
        self.depth_head = nn.Linear(dim, 1)

    def forward(self, feats, rays_d, cam):
        normals = nn.functional.normalize(self.normal_head(feats), dim=-1)
        normals_world = normals @ cam.c2w[..., :3, :3].mT  # expect: DTL002
        pts_cam = rays_d * self.depth_head(feats)
        uvw = pts_cam @ cam.K.mT  # expect: DTL002
        return normals_world, uvw[..., :2] / uvw[..., 2:]
