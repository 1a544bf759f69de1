"""Volume rendering (alpha compositing) of per-sample densities and colors."""

import torch
import torch.nn as nn


def composite(sigmas, rgbs, z_vals, white_bkgd: bool = True):
    """sigmas: (R, S), rgbs: (R, S, 3), z_vals: (R, S) -> rgb (R, 3), depth (R,), acc (R,)."""
    deltas = z_vals[:, 1:] - z_vals[:, :-1]
    deltas = torch.cat([deltas, torch.full_like(deltas[:, :1], 1e10)], dim=-1)
    alphas = 1.0 - torch.exp(-torch.relu(sigmas) * deltas)
    alphas_shifted = torch.cat([torch.ones_like(alphas[:, :1]), 1.0 - alphas + 1e-10], dim=-1)
    weights = alphas * torch.cumprod(alphas_shifted, dim=-1)[:, :-1]
    rgb = (weights[..., None] * rgbs).sum(dim=1)
    depth = (weights * z_vals).sum(dim=1)
    acc = weights.sum(dim=1)
    if white_bkgd:
        rgb = rgb + (1.0 - acc[:, None])
    return rgb, depth, acc


class RadianceField(nn.Module):
    def __init__(self, width: int = 32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, 4))

    def forward(self, pts, z_vals):
        raw = self.mlp(pts)
        return composite(raw[..., 3], torch.sigmoid(raw[..., :3]), z_vals)


def example():
    R, S = 4, 8
    z = torch.linspace(2.0, 6.0, S).expand(R, S).to(torch.bfloat16)
    pts = torch.randn(R, S, 3, dtype=torch.bfloat16)
    return RadianceField().to(torch.bfloat16), (pts, z)
