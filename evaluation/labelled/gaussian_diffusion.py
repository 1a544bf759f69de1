import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianDiffusion(nn.Module):
    def __init__(self, denoiser: nn.Module, timesteps: int = 1000):
        super().__init__()
        self.denoiser = denoiser
        self.num_timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)  # lookalike: __init__ takes no tensor
        self.register_buffer("alphas_cumprod", torch.cumprod(1.0 - betas, dim=0))

    def forward(self, x0):
        B = x0.shape[0]
        t = torch.randint(0, self.num_timesteps, (B,), device=x0.device)  # lookalike: integer timesteps
        a = self.alphas_cumprod[t].to(x0.dtype).view(-1, 1, 1, 1)
        noise = torch.randn(x0.shape, device=x0.device)  # expect: DTL001
        x_t = a.sqrt() * x0 + (1.0 - a).sqrt() * noise
        return F.mse_loss(self.denoiser(x_t, t), noise)

    @torch.no_grad()
    def renoise(self, x_t, a):
        eps = torch.randn_like(x_t)  # lookalike: *_like
        return a.sqrt() * x_t + (1.0 - a).sqrt() * eps
