"""Projects predicted 3D box corners to the image with a 3x4 projection matrix."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def box_corners(center, dims, yaw):
    """center: (N, 3), dims: (N, 3) [l, w, h], yaw: (N,) -> corners (N, 8, 3)."""
    l, w, h = dims.unbind(-1)
    x = torch.stack([l, l, -l, -l, l, l, -l, -l], -1) / 2
    y = torch.stack([w, -w, -w, w, w, -w, -w, w], -1) / 2
    z = torch.stack([h, h, h, h, -h, -h, -h, -h], -1) / 2
    c, s = torch.cos(yaw)[:, None], torch.sin(yaw)[:, None]
    xr, zr = c * x + s * z, -s * x + c * z
    return torch.stack([xr, y, zr], -1) + center[:, None]


class Box3DProjectionHead(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.reg = nn.Linear(dim, 7)

    def forward(self, roi_feats, proj_matrix):
        """roi_feats: (N, C); proj_matrix: (3, 4) camera projection."""
        out = self.reg(roi_feats)
        center = out[:, :3] + out.new_tensor([0.0, 0.0, 10.0])
        corners = box_corners(center, out[:, 3:6].exp(), out[:, 6])
        corners_h = F.pad(corners, [0, 1], value=1.0)
        uvw = F.linear(corners_h, proj_matrix)  # expect: DTL002
        uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)
        return torch.cat([uv.amin(dim=1), uv.amax(dim=1)], dim=-1)


def example():
    head = Box3DProjectionHead().to(torch.bfloat16)
    proj_matrix = torch.tensor([[700.0, 0.0, 600.0, 45.0], [0.0, 700.0, 180.0, -0.3], [0.0, 0.0, 1.0, 0.005]])
    return head, (torch.randn(3, 32, dtype=torch.bfloat16), proj_matrix)
