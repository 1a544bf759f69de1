"""DDPM training objective with the noise schedule kept in registered buffers."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_alphas_cumprod(num_steps: int, s: float = 0.008):
    steps = torch.arange(num_steps + 1, dtype=torch.float64) / num_steps
    f = torch.cos((steps + s) / (1 + s) * math.pi / 2) ** 2
    return (f[1:] / f[0]).clamp(min=1e-5).float()


class GaussianDiffusion(nn.Module):
    def __init__(self, model: nn.Module, num_steps: int = 50):
        super().__init__()
        self.model = model
        self.num_steps = num_steps
        ac = cosine_alphas_cumprod(num_steps)
        self.register_buffer("sqrt_ac", ac.sqrt())
        self.register_buffer("sqrt_1m_ac", (1 - ac).sqrt())

    def forward(self, x0, cond):
        B = x0.shape[0]
        t = torch.randint(0, self.num_steps, (B,), device=x0.device)
        noise = torch.randn_like(x0)
        x_t = self.sqrt_ac[t, None] * x0 + self.sqrt_1m_ac[t, None] * noise
        t_feat = self.sqrt_ac[t, None]
        pred = self.model(torch.cat([x_t, cond, t_feat], dim=-1))
        return F.mse_loss(pred, noise)


def example():
    net = nn.Sequential(nn.Linear(8 + 4 + 1, 32), nn.SiLU(), nn.Linear(32, 8))
    diff = GaussianDiffusion(net).to(torch.bfloat16)
    return diff, (torch.randn(4, 8, dtype=torch.bfloat16), torch.randn(4, 4, dtype=torch.bfloat16))
