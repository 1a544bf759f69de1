import torch
import torch.nn.functional as F
from torch import nn


class VolumeRenderer(nn.Module):
    """NeRF raw2outputs: densities and colours along sorted ray samples to pixel colour and depth."""

    def __init__(self, feat_dim: int = 32):
        super().__init__()
        self.rgb_sigma = nn.Linear(feat_dim, 4)

    def forward(self, feats, z_vals, rays_d):
        raw = self.rgb_sigma(feats)
        z_vals = torch.sort(z_vals, dim=-1).values
        dists = z_vals[..., 1:] - z_vals[..., :-1]
        dists = torch.cat([dists, torch.full(dists[..., :1].shape, 1e10, device=dists.device)], dim=-1)  # expect: DTL001
        dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
        rgb = torch.sigmoid(raw[..., :3])
        alpha = 1.0 - torch.exp(-F.relu(raw[..., 3]) * dists)
        transmittance = torch.cumprod(
            torch.cat([torch.ones(alpha.shape[0], 1, device=alpha.device), 1.0 - alpha + 1e-10], dim=-1),  # expect: DTL001
            dim=-1,
        )[:, :-1]
        weights = alpha * transmittance
        rgb_map = torch.sum(weights[..., None] * rgb, dim=-2)
        depth_map = torch.sum(weights * z_vals, dim=-1)
        return rgb_map, depth_map, weights


def example():
    torch.manual_seed(0)
    model = VolumeRenderer().to(torch.bfloat16)
    R, S = 16, 24
    feats = torch.randn(R, S, 32, dtype=torch.bfloat16)
    z_vals = (2.0 + 4.0 * torch.rand(R, S)).to(torch.bfloat16)
    rays_d = torch.randn(R, 3, dtype=torch.bfloat16)
    return model, (feats, z_vals, rays_d)
