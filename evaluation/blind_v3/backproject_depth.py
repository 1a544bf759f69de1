import torch
from torch import nn


class BackprojectDepth(nn.Module):
    """Monodepth-style back-projection with the cameras cast to the depth dtype."""

    def __init__(self, height: int, width: int):
        super().__init__()
        ys, xs = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
        pix = torch.stack([xs, ys, torch.ones_like(xs)], 0).view(3, -1).float()
        self.register_buffer("pix_coords", pix, persistent=False)  # lookalike: registered buffer

    def forward(self, depth: torch.Tensor, K: torch.Tensor, c2w: torch.Tensor) -> torch.Tensor:
        B = depth.shape[0]
        inv_K = torch.inverse(K)[:, :3, :3].to(depth.dtype)  # lookalike: camera cast after inverse
        cam_pts = depth.view(B, 1, -1) * (inv_K @ self.pix_coords)
        R = c2w[:, :3, :3].type_as(cam_pts)  # lookalike: camera cast with type_as
        t = c2w[:, None, :3, 3].to(cam_pts)  # lookalike: camera cast with .to(tensor)
        return cam_pts.transpose(1, 2) @ R.transpose(1, 2) + t


class DepthToPoints(nn.Module):
    def __init__(self, height: int = 6, width: int = 8):
        super().__init__()
        self.depth = nn.Conv2d(4, 1, 3, padding=1)
        self.backproject = BackprojectDepth(height, width)

    def forward(self, feats: torch.Tensor, K: torch.Tensor, c2w: torch.Tensor) -> torch.Tensor:
        depth = torch.nn.functional.softplus(self.depth(feats)) + 0.1
        return self.backproject(depth, K, c2w)


def example():
    torch.manual_seed(0)
    model = DepthToPoints().to(torch.bfloat16)
    feats = torch.randn(2, 4, 6, 8).to(torch.bfloat16)
    K = torch.tensor([[20.0, 0.0, 4.0], [0.0, 20.0, 3.0], [0.0, 0.0, 1.0]]).repeat(2, 1, 1)
    c2w = torch.eye(4).repeat(2, 1, 1)
    return model, (feats, K, c2w)
