import torch
import torch.nn.functional as F
from torch import nn


class DepthBackprojector(nn.Module):
    """Predicts depth and back-projects every pixel into a camera-frame point cloud."""

    def __init__(self, in_channels: int = 16):
        super().__init__()
        self.depth_head = nn.Conv2d(in_channels, 1, 3, padding=1)

    def forward(self, feats, intrinsics):
        B, _, H, W = feats.shape
        depth = F.softplus(self.depth_head(feats))
        ys, xs = torch.meshgrid(
            torch.arange(H, device=feats.device, dtype=depth.dtype),
            torch.arange(W, device=feats.device, dtype=depth.dtype),
            indexing="ij",
        )
        pix = torch.stack([xs, ys, torch.ones_like(xs)], dim=0).view(1, 3, -1)
        K_inv = torch.linalg.inv(intrinsics).to(depth.dtype)  # lookalike: cast after the inverse
        rays = torch.matmul(K_inv, pix)
        return (rays * depth.view(B, 1, -1)).transpose(1, 2)


def example():
    torch.manual_seed(0)
    model = DepthBackprojector().to(torch.bfloat16)
    feats = torch.randn(2, 16, 12, 16, dtype=torch.bfloat16)
    intrinsics = torch.tensor([[20.0, 0.0, 8.0], [0.0, 20.0, 6.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3).clone()
    return model, (feats, intrinsics)
