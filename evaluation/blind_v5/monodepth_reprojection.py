import torch
from torch import nn


class DepthReprojection(nn.Module):
    """Monodepth2 BackprojectDepth + Project3D: target pixels to source-view sampling coordinates."""

    def __init__(self, in_channels: int = 16, height: int = 12, width: int = 16):
        super().__init__()
        self.h, self.w = height, width
        ys, xs = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
        pix = torch.stack([xs, ys, torch.ones_like(xs)], 0).view(1, 3, -1).float()
        self.pix_coords = nn.Parameter(pix, requires_grad=False)  # lookalike: a parameter follows module.to()
        self.disp_head = nn.Conv2d(in_channels, 1, 3, padding=1)

    def forward(self, feats, K, inv_K, extrinsics):
        B = feats.shape[0]
        depth = 1.0 / (0.01 + 10.0 * self.disp_head(feats).sigmoid())
        cam_points = torch.matmul(
            inv_K[:, :3, :3],  # expect: DTL002
            self.pix_coords.expand(B, -1, -1),
        )
        cam_points = depth.view(B, 1, -1) * cam_points
        cam_points = torch.cat([cam_points, torch.ones_like(cam_points[:, :1])], 1)
        P = torch.matmul(K, extrinsics)[:, :3, :]  # lookalike: camera-only product
        pix = torch.matmul(
            P,  # expect: DTL002
            cam_points,
        )
        pix = pix[:, :2] / (pix[:, 2:3] + 1e-7)
        pix = pix.view(B, 2, self.h, self.w).permute(0, 2, 3, 1)
        return pix, depth


def example():
    torch.manual_seed(0)
    model = DepthReprojection().to(torch.bfloat16)
    feats = torch.randn(2, 16, 12, 16, dtype=torch.bfloat16)
    K = torch.tensor([[12.0, 0, 8.0, 0], [0, 12.0, 6.0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]).expand(2, 4, 4).clone()
    inv_K = torch.linalg.inv(K)
    extrinsics = torch.eye(4).expand(2, 4, 4).clone()
    extrinsics[:, 0, 3] = 0.1
    return model, (feats, K, inv_K, extrinsics)
