"""Anchor-point grids for anchor-free heads, made from feature map sizes.

The helpers take sizes and a device (no tensor), so callers decide the dtype.
"""
import torch


def make_grid_points(h: int, w: int, device, dtype=None) -> torch.Tensor:
    """Pixel-centre (x, y) points of an h x w feature map, flattened row-major."""
    ys = torch.arange(h, device=device, dtype=dtype) + 0.5  # lookalike: no tensor parameter here
    xs = torch.arange(w, device=device, dtype=dtype) + 0.5
    yy, xx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([xx, yy], dim=-1).reshape(-1, 2)


def example():
    return make_grid_points, (4, 6, torch.device("cpu"), torch.bfloat16)
