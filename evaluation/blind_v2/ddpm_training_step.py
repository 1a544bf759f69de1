"""DDPM noise-prediction training step with a linear beta schedule."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DDPM(nn.Module):
    def __init__(self, denoiser: nn.Module, num_steps: int = 100, beta_start: float = 1e-4, beta_end: float = 0.02):
        super().__init__()
        self.denoiser = denoiser
        self.num_steps = num_steps
        betas = torch.linspace(beta_start, beta_end, num_steps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DTL005

    def q_sample(self, x0, t, noise):
        ab = self.alphas_cumprod.to(x0.device)[t].view(-1, 1)
        return ab.sqrt() * x0 + (1.0 - ab).sqrt() * noise

    def forward(self, x0):
        t = torch.randint(0, self.num_steps, (x0.shape[0],), device=x0.device)
        noise = torch.randn(x0.shape, device=x0.device)  # expect: DTL001
        x_t = self.q_sample(x0, t, noise)
        pred = self.denoiser(torch.cat([x_t, (t[:, None] / self.num_steps).to(x_t.dtype)], dim=-1))
        return F.mse_loss(pred, noise)


def example():
    denoiser = nn.Sequential(nn.Linear(9, 32), nn.SiLU(), nn.Linear(32, 8))
    model = DDPM(denoiser).to(torch.bfloat16)
    return model, (torch.randn(4, 8, dtype=torch.bfloat16),)
