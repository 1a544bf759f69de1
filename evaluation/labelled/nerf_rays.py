import torch
from torch import Tensor


def get_rays(H: int, W: int, K: Tensor, c2w: Tensor) -> tuple[Tensor, Tensor]:
    """Classic NeRF ray generation: only camera values and a pixel grid, no activations."""
    i, j = torch.meshgrid(
        torch.linspace(0, W - 1, W, device=c2w.device),  # lookalike: meets only camera values
        torch.linspace(0, H - 1, H, device=c2w.device),
        indexing="xy",
    )
    dirs = torch.stack([(i - K[0, 2]) / K[0, 0], -(j - K[1, 2]) / K[1, 1], -torch.ones_like(i)], -1)
    rays_d = dirs @ c2w[:3, :3].T  # lookalike: camera and pixel grid, no activation
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o, rays_d


def sample_along_rays(rays_o: Tensor, rays_d: Tensor, near: float, far: float, n_samples: int):
    t_vals = torch.linspace(0.0, 1.0, n_samples, device=rays_o.device)  # expect: DTL001
    z_vals = near * (1.0 - t_vals) + far * t_vals
    z_vals = z_vals.expand(rays_o.shape[0], n_samples)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    return pts, z_vals
