"""Grid and sampling helpers shared by the flowkit models.

The helpers live in ops/grids.py and are re-exported here, so models import them as
`from .ops import coords_grid`.
"""
from .grids import bilinear_sampler, coords_grid, window_offsets

__all__ = ["coords_grid", "window_offsets", "bilinear_sampler"]


def example():
    import torch

    feats = torch.randn(1, 4, 6, 8, dtype=torch.bfloat16)
    coords = torch.rand(1, 6, 8, 2, dtype=torch.bfloat16) * 5
    return bilinear_sampler, (feats, coords)
