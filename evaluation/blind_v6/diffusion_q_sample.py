"""DDPM forward process: noise a clean latent to timestep t and predict the noise."""
import torch
import torch.nn as nn


class GaussianDiffusion(nn.Module):
    def __init__(self, denoiser: nn.Module, timesteps: int = 1000):
        super().__init__()
        self.denoiser = denoiser
        self.num_timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)  # expect: DTL005
        self.sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - alphas_cumprod)  # expect: DTL005
        self.log_one_minus_alphas_cumprod = torch.log(1.0 - alphas_cumprod)  # lookalike: never used with activations

    def q_sample(self, x_start: torch.Tensor, t: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
        a = self.sqrt_alphas_cumprod.to(x_start.device)[t].view(-1, 1, 1, 1)
        b = self.sqrt_one_minus_alphas_cumprod.to(x_start.device)[t].view(-1, 1, 1, 1)
        return a * x_start + b * noise

    def forward(self, x_start: torch.Tensor, t: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
        x_noisy = self.q_sample(x_start, t, noise)
        pred = self.denoiser(x_noisy)
        return pred - noise


def example():
    denoiser = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 4, 3, padding=1))
    model = GaussianDiffusion(denoiser).to(torch.bfloat16)
    x = torch.randn(2, 4, 8, 8, dtype=torch.bfloat16)
    t = torch.randint(0, 1000, (2,))
    noise = torch.randn(2, 4, 8, 8, dtype=torch.bfloat16)
    return model, (x, t, noise)
