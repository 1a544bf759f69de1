import torch
from torch import Tensor


def unproject_depth(depth: Tensor, K: Tensor) -> Tensor:
    """depth: (B, 1, H, W) predicted; K: (B, 3, 3). Returns (B, H*W, 3) points."""
    B, _, H, W = depth.shape
    ys, xs = torch.meshgrid(
        torch.arange(H, device=depth.device, dtype=torch.float32),  # lookalike: dtype given
        torch.arange(W, device=depth.device, dtype=torch.float32),
        indexing="ij",
    )
    pix = torch.stack([xs, ys, torch.ones_like(xs)], dim=-1).reshape(-1, 3)
    rays = pix @ torch.linalg.inv(K).mT  # lookalike: camera and pixel grid, no activation
    return rays.to(depth.dtype) * depth.reshape(B, -1, 1)
