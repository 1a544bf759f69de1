import torch
from torch import Tensor


def composite(rgb: Tensor, sigma: Tensor, z_vals: Tensor, white_bkgd: bool = False):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    far = torch.tensor([1e10], device=z_vals.device).expand(dists[..., :1].shape)  # expect: DTL001
    dists = torch.cat([dists, far], dim=-1)
    alpha = 1.0 - torch.exp(-torch.relu(sigma) * dists)
    ones = torch.ones((*alpha.shape[:-1], 1), device=alpha.device)  # expect: DTL001
    trans = torch.cumprod(torch.cat([ones, 1.0 - alpha + 1e-10], dim=-1), dim=-1)[..., :-1]
    weights = alpha * trans
    rgb_map = (weights[..., None] * rgb).sum(dim=-2)
    acc = weights.sum(dim=-1)
    if white_bkgd:
        rgb_map = rgb_map + (1.0 - acc[..., None])
    return rgb_map, (weights * z_vals).sum(dim=-1), weights


def composite_like(rgb: Tensor, sigma: Tensor, z_vals: Tensor):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.full_like(dists[..., :1], 1e10)], dim=-1)  # lookalike: *_like
    alpha = 1.0 - torch.exp(-torch.relu(sigma) * dists)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha + 1e-10], -1), -1)  # lookalike: *_like
    weights = alpha * trans[..., :-1]
    return (weights[..., None] * rgb).sum(dim=-2), weights
