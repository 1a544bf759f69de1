import torch
from torch import nn


class GaussianDiffusion(nn.Module):
    """DDPM training forward: q_sample with the cumulative alphas, then the noise prediction."""

    def __init__(self, timesteps: int = 100, channels: int = 3):
        super().__init__()
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)  # expect: DTL005
        self.denoiser = nn.Sequential(
            nn.Conv2d(channels, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, channels, 3, padding=1)
        )

    def forward(self, x0, t, noise):
        a = self.alphas_cumprod[t].view(-1, 1, 1, 1)
        x_t = a.sqrt() * x0 + (1.0 - a).sqrt() * noise
        return self.denoiser(x_t)


def example():
    torch.manual_seed(0)
    model = GaussianDiffusion().to(torch.bfloat16)
    x0 = torch.randn(2, 3, 16, 16, dtype=torch.bfloat16)
    t = torch.tensor([3, 71])
    noise = torch.randn(2, 3, 16, 16, dtype=torch.bfloat16)
    return model, (x0, t, noise)
