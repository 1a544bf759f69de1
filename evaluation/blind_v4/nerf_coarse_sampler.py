import torch
import torch.nn as nn


class CoarseRaySampler(nn.Module):
    """Stratified samples along rays between predicted near/far bounds."""

    def __init__(self, n_samples: int = 32, hidden: int = 64):
        super().__init__()
        self.n_samples = n_samples
        self.bounds = nn.Linear(6, 2)
        self.field = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 4))

    def forward(self, rays_o, rays_d):
        nf = self.bounds(torch.cat([rays_o, rays_d], dim=-1)).sigmoid()
        near, far = nf[:, :1] * 2.0, 2.0 + nf[:, 1:] * 4.0
        t_vals = torch.linspace(0.0, 1.0, self.n_samples, device=rays_o.device)  # expect: DTL001
        z_vals = near * (1.0 - t_vals) + far * t_vals
        mids = 0.5 * (z_vals[:, 1:] + z_vals[:, :-1])
        upper = torch.cat([mids, z_vals[:, -1:]], dim=-1)
        lower = torch.cat([z_vals[:, :1], mids], dim=-1)
        jitter = torch.rand(z_vals.shape, device=rays_o.device)  # expect: DTL001
        z_vals = lower + (upper - lower) * jitter
        pts = rays_o[:, None, :] + rays_d[:, None, :] * z_vals[..., None]
        raw = self.field(pts)
        return raw, z_vals


def example():
    model = CoarseRaySampler().to(torch.bfloat16)
    rays_o = torch.randn(128, 3, dtype=torch.bfloat16)
    rays_d = torch.nn.functional.normalize(torch.randn(128, 3), dim=-1).to(torch.bfloat16)
    return model, (rays_o, rays_d)
