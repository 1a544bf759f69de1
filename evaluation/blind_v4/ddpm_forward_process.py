import torch
import torch.nn as nn


class GaussianDiffusion(nn.Module):
    """Epsilon-prediction training forward of a DDPM."""

    def __init__(self, denoiser: nn.Module, timesteps: int = 100):
        super().__init__()
        self.denoiser = denoiser
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DTL005
        self.num_timesteps = timesteps

    def q_sample(self, x0, t):
        noise = torch.randn(x0.shape, device=x0.device)  # expect: DTL001
        a = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        return a.sqrt() * x0 + (1 - a).sqrt() * noise, noise

    def forward(self, x0, t):
        xt, noise = self.q_sample(x0, t)
        pred = self.denoiser(xt)
        return pred - noise


def example():
    model = GaussianDiffusion(nn.Conv2d(3, 3, 3, padding=1)).to(torch.bfloat16)
    x0 = torch.randn(2, 3, 8, 8, dtype=torch.bfloat16)
    t = torch.randint(0, 100, (2,))
    return model, (x0, t)
