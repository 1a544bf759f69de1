import torch
from torch import nn


def sample_pdf(bins, weights, n_samples: int):
    """NeRF inverse-transform sampling of the fine samples from the coarse weights."""
    weights = weights + 1e-5
    pdf = weights / weights.sum(-1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    u = torch.linspace(0.0, 1.0, n_samples, device=bins.device, dtype=bins.dtype)  # lookalike: dtype given
    u = u.expand(*cdf.shape[:-1], n_samples).contiguous()
    inds = torch.searchsorted(cdf, u, right=True)
    below = (inds - 1).clamp(min=0)
    above = inds.clamp(max=cdf.shape[-1] - 1)
    cdf_g0, cdf_g1 = cdf.gather(-1, below), cdf.gather(-1, above)
    bins_g0, bins_g1 = bins.gather(-1, below), bins.gather(-1, above)
    denom = cdf_g1 - cdf_g0
    denom = torch.where(denom < 1e-5, torch.ones_like(denom), denom)
    frac = (u - cdf_g0) / denom
    return bins_g0 + frac * (bins_g1 - bins_g0)


class HierarchicalSampler(nn.Module):
    def __init__(self, feat_dim: int = 32, n_fine: int = 16):
        super().__init__()
        self.n_fine = n_fine
        self.weight_head = nn.Linear(feat_dim, 1)

    def forward(self, ray_feats, z_vals):
        weights = self.weight_head(ray_feats).squeeze(-1).softmax(dim=-1)
        z_mid = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
        z_fine = sample_pdf(z_mid, weights[..., 1:-1], self.n_fine)
        return torch.sort(torch.cat([z_vals, z_fine], dim=-1), dim=-1).values


def example():
    torch.manual_seed(0)
    model = HierarchicalSampler().to(torch.bfloat16)
    ray_feats = torch.randn(8, 12, 32, dtype=torch.bfloat16)
    z_vals = torch.linspace(2.0, 6.0, 12).expand(8, 12).contiguous().to(torch.bfloat16)
    return model, (ray_feats, z_vals)
