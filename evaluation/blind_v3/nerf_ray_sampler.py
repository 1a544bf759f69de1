import torch
from torch import nn


def sample_along_rays(rays_o: torch.Tensor, rays_d: torch.Tensor, near: float, far: float, n_samples: int):
    """Stratified depths along each ray for the coarse NeRF pass."""
    t_vals = torch.linspace(0.0, 1.0, steps=n_samples, device=rays_o.device)  # expect: DTL001
    z_vals = near * (1.0 - t_vals) + far * t_vals
    z_vals = z_vals.expand(rays_o.shape[0], n_samples)
    pts = rays_o[:, None, :] + rays_d[:, None, :] * z_vals[..., None]
    return pts, z_vals


class CoarseField(nn.Module):
    def __init__(self, hidden: int = 64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, rays_o: torch.Tensor, rays_d: torch.Tensor) -> torch.Tensor:
        pts, z_vals = sample_along_rays(rays_o, rays_d, near=2.0, far=6.0, n_samples=16)
        raw = self.mlp(pts)
        sigma = torch.relu(raw[..., 3])
        deltas = z_vals[:, 1:] - z_vals[:, :-1]
        alpha = 1.0 - torch.exp(-sigma[:, :-1] * deltas)
        return alpha


def example():
    torch.manual_seed(0)
    model = CoarseField().to(torch.bfloat16)
    rays_o = torch.randn(8, 3).to(torch.bfloat16)
    rays_d = nn.functional.normalize(torch.randn(8, 3), dim=-1).to(torch.bfloat16)
    return model, (rays_o, rays_d)
