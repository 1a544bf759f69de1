"""NeRF: stratified sampling along rays, a tiny radiance MLP and alpha compositing."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyNeRF(nn.Module):
    def __init__(self, hidden: int = 64, n_samples: int = 16, near: float = 2.0, far: float = 6.0):
        super().__init__()
        self.n_samples, self.near, self.far = n_samples, near, far
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def raw2outputs(self, raw: torch.Tensor, z_vals: torch.Tensor, rays_d: torch.Tensor):
        dists = z_vals[..., 1:] - z_vals[..., :-1]
        dists = torch.cat([dists, torch.full_like(dists[..., :1], 1e10)], dim=-1)  # lookalike: *_like factory
        dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
        rgb = torch.sigmoid(raw[..., :3])
        alpha = 1.0 - torch.exp(-F.relu(raw[..., 3]) * dists)
        trans = torch.cumprod(
            torch.cat([torch.ones((alpha.shape[0], 1), device=alpha.device), 1.0 - alpha + 1e-10], dim=-1),  # expect: DTL001
            dim=-1,
        )[:, :-1]
        weights = alpha * trans
        rgb_map = torch.sum(weights[..., None] * rgb, dim=-2)
        depth_map = torch.sum(weights * z_vals, dim=-1)
        return rgb_map, depth_map

    def forward(self, rays_o: torch.Tensor, rays_d: torch.Tensor):
        t_vals = torch.linspace(0.0, 1.0, steps=self.n_samples, device=rays_o.device)  # expect: DTL001
        z_vals = self.near * (1.0 - t_vals) + self.far * t_vals
        z_vals = z_vals.expand(rays_o.shape[0], self.n_samples)
        pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
        raw = self.net(pts)
        return self.raw2outputs(raw, z_vals, rays_d)


def example():
    model = TinyNeRF().to(torch.bfloat16)
    rays_o = torch.zeros(32, 3, dtype=torch.bfloat16)
    rays_d = F.normalize(torch.randn(32, 3), dim=-1).to(torch.bfloat16)
    return model, (rays_o, rays_d)
