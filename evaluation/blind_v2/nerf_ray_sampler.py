"""NeRF coarse sampling, positional encoding and volume rendering along camera rays."""

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, num_freqs: int = 6):
        super().__init__()
        self.num_freqs = num_freqs

    def forward(self, x):
        freq_bands = torch.logspace(0, self.num_freqs - 1, self.num_freqs, base=2.0, device=x.device)  # expect: DTL001
        scaled = x[..., None, :] * freq_bands[:, None]  # (..., F, 3)
        enc = torch.cat([torch.sin(scaled), torch.cos(scaled)], dim=-1).flatten(-2)
        return torch.cat([x, enc], dim=-1)


class TinyNeRF(nn.Module):
    def __init__(self, num_samples: int = 16, near: float = 2.0, far: float = 6.0, width: int = 64):
        super().__init__()
        self.num_samples = num_samples
        self.near, self.far = near, far
        self.encoding = PositionalEncoding(6)
        self.mlp = nn.Sequential(nn.Linear(3 + 36, width), nn.ReLU(), nn.Linear(width, 4))

    def sample_along_rays(self, rays_o, rays_d, perturb: bool = True):
        near = torch.full_like(rays_o[..., :1], self.near)
        far = torch.full_like(rays_o[..., :1], self.far)
        t_vals = torch.linspace(0.0, 1.0, self.num_samples, device=rays_o.device)  # expect: DTL001
        z_vals = near * (1.0 - t_vals) + far * t_vals
        if perturb:
            mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
            upper = torch.cat([mids, z_vals[..., -1:]], dim=-1)
            lower = torch.cat([z_vals[..., :1], mids], dim=-1)
            t_rand = torch.rand(z_vals.shape, device=z_vals.device)  # expect: DTL001
            z_vals = lower + (upper - lower) * t_rand
        pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
        return pts, z_vals

    def forward(self, directions, origins, c2w):
        """directions: (B, R, 3) camera-space ray directions, origins: (B, R, 3), c2w: (B, 4, 4)."""
        rays_d = directions @ c2w[:, :3, :3].transpose(1, 2)  # expect: DTL002
        pts, z_vals = self.sample_along_rays(origins, rays_d)
        raw = self.mlp(self.encoding(pts))
        rgb, sigma = torch.sigmoid(raw[..., :3]), torch.relu(raw[..., 3])
        deltas = z_vals[..., 1:] - z_vals[..., :-1]
        deltas = torch.cat([deltas, torch.full_like(deltas[..., :1], 1e10)], dim=-1)
        alpha = 1.0 - torch.exp(-sigma * deltas)
        trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)
        weights = alpha * trans[..., :-1]
        return (weights[..., None] * rgb).sum(dim=-2)


def example():
    model = TinyNeRF().to(torch.bfloat16)
    B, R = 1, 8
    directions = torch.nn.functional.normalize(torch.randn(B, R, 3), dim=-1).to(torch.bfloat16)
    c2w = torch.eye(4).unsqueeze(0)
    origins = c2w[:, :3, 3].to(torch.bfloat16)[:, None].expand(B, R, 3)
    return model, (directions, origins, c2w)
