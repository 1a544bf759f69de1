import torch
from torch import nn


class StratifiedRaySampler(nn.Module):
    """NeRF coarse pass: stratified depths along each ray, then a tiny radiance MLP."""

    def __init__(self, n_samples: int = 16, near: float = 2.0, far: float = 6.0, width: int = 64) -> None:
        super().__init__()
        self.n_samples = n_samples
        self.near, self.far = near, far
        self.mlp = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, 4))

    def forward(self, rays_o: torch.Tensor, rays_d: torch.Tensor) -> torch.Tensor:
        t_vals = torch.linspace(0.0, 1.0, steps=self.n_samples, device=rays_o.device)  # expect: DTL001
        z_vals = self.near * (1.0 - t_vals) + self.far * t_vals
        z_vals = z_vals.expand(rays_o.shape[0], self.n_samples)
        pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
        raw = self.mlp(pts)
        sigma = torch.relu(raw[..., 3])
        dists = torch.cat([z_vals[..., 1:] - z_vals[..., :-1], z_vals[..., -1:] * 0 + 1e3], dim=-1)
        alpha = 1.0 - torch.exp(-sigma * dists)
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)
        weights = alpha * trans[..., :-1]
        return (weights[..., None] * torch.sigmoid(raw[..., :3])).sum(dim=-2)


def example():
    torch.manual_seed(0)
    model = StratifiedRaySampler().to(torch.bfloat16)
    rays_o = torch.randn(64, 3, dtype=torch.bfloat16)
    rays_d = torch.nn.functional.normalize(torch.randn(64, 3), dim=-1).to(torch.bfloat16)
    return model, (rays_o, rays_d)
