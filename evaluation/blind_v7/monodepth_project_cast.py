import torch
from torch import nn


class BackprojectDepth(nn.Module):
    def __init__(self, height: int, width: int) -> None:
        super().__init__()
        v, u = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
        self.register_buffer("pix", torch.stack([u, v, torch.ones_like(u)]).view(1, 3, -1).float(), persistent=False)

    def forward(self, depth: torch.Tensor, inv_K: torch.Tensor) -> torch.Tensor:
        B = depth.shape[0]
        rays = torch.matmul(inv_K[:, :3, :3].type_as(depth), self.pix.expand(B, -1, -1))  # lookalike: camera cast
        pts = rays * depth.view(B, 1, -1)
        return torch.cat([pts, torch.ones_like(pts[:, :1])], dim=1)


class Project3D(nn.Module):
    def forward(self, points: torch.Tensor, K: torch.Tensor, T: torch.Tensor) -> torch.Tensor:
        P = torch.matmul(K, T)[:, :3, :]  # lookalike: camera-only product
        cam = torch.matmul(P.to(points.dtype), points)  # lookalike: camera cast
        return cam[:, :2] / (cam[:, 2:3] + 1e-7)


class DepthWarp(nn.Module):
    """Monodepth2's view synthesis, with every camera cast to the depth dtype before the products."""

    def __init__(self, height: int = 6, width: int = 8) -> None:
        super().__init__()
        self.disp = nn.Conv2d(3, 1, 3, padding=1)
        self.backproject = BackprojectDepth(height, width)
        self.project = Project3D()

    def forward(self, image: torch.Tensor, K: torch.Tensor, inv_K: torch.Tensor, T: torch.Tensor) -> torch.Tensor:
        depth = 1.0 / (0.01 + torch.sigmoid(self.disp(image)))
        return self.project(self.backproject(depth, inv_K), K, T)


def example():
    torch.manual_seed(0)
    model = DepthWarp().to(torch.bfloat16)
    K = torch.tensor([[[40.0, 0, 4, 0], [0, 40.0, 3, 0], [0, 0, 1, 0], [0, 0, 0, 1]]]).repeat(2, 1, 1)
    T = torch.eye(4).repeat(2, 1, 1)
    return model, (torch.randn(2, 3, 6, 8, dtype=torch.bfloat16), K, torch.inverse(K), T)
