"""Camera geometry helpers shared by the multi-view models of this package."""

import torch


def build_projection(K, w2c):
    """K: (B, 3, 3), w2c: (B, 4, 4) -> P = K [R | t]: (B, 3, 4)."""
    return K @ w2c[:, :3, :]


def to_homogeneous(points):
    """(…, 3) -> (…, 4) with a trailing one, in the dtype of ``points``."""
    ones = torch.ones(*points.shape[:-1], 1, device=points.device, dtype=points.dtype)
    return torch.cat([points, ones], dim=-1)


def gaussian_bin_weights(values, centers, sigma: float):
    """Soft assignment of ``values`` (…,) to bins ``centers`` (K,) -> (…, K)."""
    return torch.exp(-0.5 * ((values[..., None] - centers) / sigma) ** 2)


def example():
    B, N, K_bins = 2, 10, 8
    points = torch.randn(B, N, 3, dtype=torch.bfloat16)
    depth = torch.rand(B, N, dtype=torch.bfloat16) * 10

    def run(points, depth):
        pts_h = to_homogeneous(points)
        centers = torch.linspace(0, 10, K_bins, dtype=depth.dtype)
        return pts_h, gaussian_bin_weights(depth, centers, 1.0)

    return run, (points, depth)
