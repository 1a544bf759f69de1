import torch
from torch import nn


class EDMPreconditioner(nn.Module):
    """EDM-style training step pieces: noise, sigma and conditioning-dropout, all in the data dtype."""

    def __init__(self, denoiser: nn.Module, p_uncond: float = 0.1):
        super().__init__()
        self.denoiser = denoiser
        self.p_uncond = p_uncond

    def forward(self, x0: torch.Tensor, log_sigma: torch.Tensor) -> torch.Tensor:
        sigma = log_sigma.exp().view(-1, 1, 1, 1)
        noise = torch.randn_like(x0)  # lookalike: *_like follows x0
        x_noisy = x0 + sigma * noise
        c_in = 1.0 / (sigma ** 2 + 0.25).sqrt()
        keep = torch.rand(x0.shape[0], 1, 1, 1, device=x0.device, dtype=x0.dtype) > self.p_uncond  # lookalike: dtype given; bool
        offset = x0.new_zeros(x0.shape[0], 1, 1, 1)  # lookalike: new_* follows x0
        fill = torch.full_like(sigma, 0.5)  # lookalike: *_like
        out = self.denoiser(c_in * x_noisy * keep + offset)
        return out * fill


def example():
    torch.manual_seed(0)
    denoiser = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 3, 3, padding=1))
    model = EDMPreconditioner(denoiser).to(torch.bfloat16)
    x0 = torch.randn(2, 3, 8, 8).to(torch.bfloat16)
    log_sigma = torch.randn(2).to(torch.bfloat16)
    return model, (x0, log_sigma)
