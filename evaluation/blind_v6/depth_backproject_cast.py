"""Depth-to-point-cloud lifting where every camera matrix is cast to the activation dtype first."""
import torch
import torch.nn as nn


class DepthLifter(nn.Module):
    def __init__(self, in_ch: int = 3, feat_ch: int = 16):
        super().__init__()
        self.depth_head = nn.Sequential(nn.Conv2d(in_ch, feat_ch, 3, padding=1), nn.ReLU(), nn.Conv2d(feat_ch, 1, 1), nn.Softplus())
        self.point_mlp = nn.Linear(3, feat_ch)

    def forward(self, img: torch.Tensor, intrinsics: torch.Tensor, cam_to_world: torch.Tensor) -> torch.Tensor:
        B, _, H, W = img.shape
        depth = self.depth_head(img)
        ys, xs = torch.meshgrid(
            torch.arange(H, device=img.device, dtype=img.dtype),
            torch.arange(W, device=img.device, dtype=img.dtype),
            indexing="ij",
        )  # lookalike: dtype given
        pix = torch.stack([xs, ys, torch.ones_like(xs)], dim=-1).view(1, -1, 3)
        K_inv = torch.linalg.inv(intrinsics).to(img.dtype)  # lookalike: cast after the inverse
        rays = pix @ K_inv.transpose(1, 2)  # lookalike: camera already cast
        pts_cam = rays * depth.view(B, -1, 1)
        R = cam_to_world[:, :3, :3].to(pts_cam)  # lookalike: .to(x) cast
        t = cam_to_world[:, :3, 3].type_as(pts_cam)  # lookalike: type_as cast
        pts_world = pts_cam @ R.transpose(1, 2) + t[:, None]
        return self.point_mlp(pts_world)


def example():
    m = DepthLifter().to(torch.bfloat16)
    K = torch.tensor([[20.0, 0, 8.0], [0, 20.0, 6.0], [0, 0, 1.0]]).expand(2, 3, 3)
    c2w = torch.eye(4).expand(2, 4, 4)
    return m, (torch.rand(2, 3, 12, 16, dtype=torch.bfloat16), K, c2w)
