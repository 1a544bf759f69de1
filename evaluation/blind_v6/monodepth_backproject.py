"""Monodepth2-style view synthesis: back-project predicted depth and re-project into the stereo view."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class BackprojectDepth(nn.Module):
    def __init__(self, batch_size: int, height: int, width: int):
        super().__init__()
        self.batch_size, self.height, self.width = batch_size, height, width
        xs, ys = np.meshgrid(range(width), range(height), indexing="xy")
        id_coords = torch.from_numpy(np.stack([xs, ys], axis=0).astype(np.float32))
        ones = torch.ones(batch_size, 1, height * width)
        pix = torch.stack([id_coords[0].view(-1), id_coords[1].view(-1)], 0)[None].repeat(batch_size, 1, 1)
        self.ones = nn.Parameter(ones, requires_grad=False)  # lookalike: a parameter follows module.to()
        self.pix_coords = nn.Parameter(torch.cat([pix, ones], 1), requires_grad=False)

    def forward(self, depth: torch.Tensor, inv_K: torch.Tensor) -> torch.Tensor:
        cam_points = torch.matmul(
            inv_K[:, :3, :3],  # expect: DTL002
            self.pix_coords,
        )
        cam_points = depth.view(self.batch_size, 1, -1) * cam_points
        return torch.cat([cam_points, self.ones], 1)


class Project3D(nn.Module):
    def __init__(self, batch_size: int, height: int, width: int, eps: float = 1e-7):
        super().__init__()
        self.batch_size, self.height, self.width, self.eps = batch_size, height, width, eps

    def forward(self, points: torch.Tensor, K: torch.Tensor, T: torch.Tensor) -> torch.Tensor:
        P = torch.matmul(K, T)[:, :3, :]  # lookalike: camera-only product
        cam_points = torch.matmul(P, points)  # expect: DTL002
        pix_coords = cam_points[:, :2, :] / (cam_points[:, 2, :].unsqueeze(1) + self.eps)
        pix_coords = pix_coords.view(self.batch_size, 2, self.height, self.width).permute(0, 2, 3, 1)
        pix_coords[..., 0] /= self.width - 1
        pix_coords[..., 1] /= self.height - 1
        return (pix_coords - 0.5) * 2


class StereoReprojection(nn.Module):
    def __init__(self, batch_size: int = 2, height: int = 8, width: int = 16):
        super().__init__()
        self.depth_net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1), nn.Softplus())
        self.backproject = BackprojectDepth(batch_size, height, width)
        self.project = Project3D(batch_size, height, width)

    def forward(self, img: torch.Tensor, src_img: torch.Tensor, K: torch.Tensor, inv_K: torch.Tensor, stereo_T: torch.Tensor):
        depth = self.depth_net(img) + 0.1
        cam_points = self.backproject(depth, inv_K)
        pix_coords = self.project(cam_points, K, stereo_T)
        return F.grid_sample(src_img, pix_coords, padding_mode="border", align_corners=True)


def example():
    B, H, W = 2, 8, 16
    model = StereoReprojection(B, H, W).to(torch.bfloat16)
    K = torch.tensor([[[0.58 * W, 0, 0.5 * W, 0], [0, 1.92 * H, 0.5 * H, 0], [0, 0, 1, 0], [0, 0, 0, 1]]]).repeat(B, 1, 1)
    stereo_T = torch.eye(4).repeat(B, 1, 1)
    stereo_T[:, 0, 3] = -0.1
    img = torch.rand(B, 3, H, W, dtype=torch.bfloat16)
    src = torch.rand(B, 3, H, W, dtype=torch.bfloat16)
    return model, (img, src, K, torch.linalg.pinv(K), stereo_T)
