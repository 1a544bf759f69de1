import torch
from torch import nn
import torch.nn.functional as F


def normalized_grid(h: int, w: int, **kwargs) -> torch.Tensor:
    """(h, w, 2) grid in [-1, 1]; factory options (device, dtype) are forwarded untouched."""
    ys = torch.linspace(-1.0, 1.0, h, **kwargs)  # lookalike: dtype may come through **kwargs
    xs = torch.linspace(-1.0, 1.0, w, **kwargs)  # lookalike: dtype may come through **kwargs
    gy, gx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.stack([gx, gy], dim=-1)


class SpatialTransformer(nn.Module):
    """STN-style warp with a predicted per-pixel offset field added to a base grid."""

    def __init__(self, channels: int = 8) -> None:
        super().__init__()
        self.offset = nn.Conv2d(channels, 2, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, _, H, W = x.shape
        factory_kwargs = {"device": x.device, "dtype": x.dtype}
        base = normalized_grid(H, W, **factory_kwargs)
        grid = base[None] + 0.1 * torch.tanh(self.offset(x)).permute(0, 2, 3, 1)
        return F.grid_sample(x, grid, align_corners=True)


def example():
    torch.manual_seed(0)
    model = SpatialTransformer().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 10, 12, dtype=torch.bfloat16),)
