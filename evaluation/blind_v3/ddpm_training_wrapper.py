import torch
from torch import nn


class GaussianDiffusion(nn.Module):
    def __init__(self, denoiser: nn.Module, timesteps: int = 100):
        super().__init__()
        betas = torch.linspace(1e-4, 0.02, timesteps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("sqrt_ac", alphas_cumprod.sqrt())  # lookalike: registered buffer follows module.to()
        self.register_buffer("sqrt_1m_ac", (1.0 - alphas_cumprod).sqrt())  # lookalike: registered buffer
        self.denoiser = denoiser

    def forward(self, x0: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        noise = torch.randn(x0.shape, device=x0.device)  # expect: DTL001
        a = self.sqrt_ac[t].view(-1, 1, 1, 1)  # lookalike: integer timesteps used as an index
        s = self.sqrt_1m_ac[t].view(-1, 1, 1, 1)
        x_t = a * x0 + s * noise
        pred = self.denoiser(x_t)
        return (pred - noise).pow(2).mean()


def example():
    torch.manual_seed(0)
    denoiser = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 3, 3, padding=1))
    model = GaussianDiffusion(denoiser).to(torch.bfloat16)
    x0 = torch.randn(2, 3, 8, 8).to(torch.bfloat16)
    t = torch.randint(0, 100, (2,))
    return model, (x0, t)
