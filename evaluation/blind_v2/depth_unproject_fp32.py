"""Back-projection of predicted depth done in float32 for accuracy, returned in model dtype."""

import torch
import torch.nn as nn


class PreciseBackprojector(nn.Module):
    def __init__(self, in_ch: int = 8):
        super().__init__()
        self.depth = nn.Conv2d(in_ch, 1, 1)

    def forward(self, feats, pixels, K):
        """feats: (B, C, H, W); pixels: (B, H*W, 3) homogeneous pixel coords (model dtype); K: (B, 3, 3)."""
        depth = nn.functional.softplus(self.depth(feats)).flatten(1)
        K_inv = torch.linalg.inv(K.float())
        rays = pixels.float() @ K_inv.transpose(1, 2)
        points = rays * depth.float()[..., None]
        return points.to(feats.dtype)


def example():
    B, H, W = 1, 3, 4
    ys, xs = torch.meshgrid(torch.arange(H) + 0.5, torch.arange(W) + 0.5, indexing="ij")
    pix = torch.stack([xs, ys, torch.ones_like(xs)], -1).view(1, -1, 3).to(torch.bfloat16)
    K = torch.tensor([[[20.0, 0.0, 2.0], [0.0, 20.0, 1.5], [0.0, 0.0, 1.0]]], dtype=torch.float64)
    return PreciseBackprojector().to(torch.bfloat16), (torch.randn(B, 8, H, W, dtype=torch.bfloat16), pix, K)
