import torch
import torch.nn.functional as F


def coords_grid(batch: int, ht: int, wd: int, device=None) -> torch.Tensor:
    # pixel coordinates (x, y) in float32, as RAFT builds them
    ys, xs = torch.meshgrid(
        torch.arange(ht, device=device), torch.arange(wd, device=device), indexing="ij"
    )
    coords = torch.stack([xs, ys], dim=0).float()
    return coords[None].repeat(batch, 1, 1, 1)


def window_offsets(radius: int, device=None) -> torch.Tensor:
    # (2r+1)^2 lookup offsets around each centroid
    d = torch.linspace(-radius, radius, 2 * radius + 1, device=device)
    dy, dx = torch.meshgrid(d, d, indexing="ij")
    return torch.stack([dx, dy], dim=-1).view(-1, 2)


def bilinear_sampler(img: torch.Tensor, coords: torch.Tensor) -> torch.Tensor:
    """Sample img (B, C, H, W) at pixel coords (B, h, w, 2)."""
    H, W = img.shape[-2:]
    xgrid, ygrid = coords.split([1, 1], dim=-1)
    xgrid = 2 * xgrid / (W - 1) - 1
    ygrid = 2 * ygrid / (H - 1) - 1
    grid = torch.cat([xgrid, ygrid], dim=-1)  # lookalike: both halves come from coords
    return F.grid_sample(img, grid, align_corners=True)


def example():
    feats = torch.randn(2, 8, 12, 16, dtype=torch.bfloat16)
    coords = torch.rand(2, 12, 16, 2, dtype=torch.bfloat16) * 10
    return bilinear_sampler, (feats, coords)
