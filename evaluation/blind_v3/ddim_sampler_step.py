import torch
from torch import nn


class DDIMStep(nn.Module):
    """One deterministic DDIM update; the schedule lives in registered buffers."""

    def __init__(self, eps_model: nn.Module, n_train_steps: int = 100):
        super().__init__()
        self.eps_model = eps_model
        betas = torch.linspace(1e-4, 0.02, n_train_steps)
        self.register_buffer("alphas_cumprod", torch.cumprod(1.0 - betas, dim=0))  # lookalike: registered buffer
        self.register_buffer("final_alpha", torch.ones(1))  # lookalike: registered buffer

    def forward(self, x_t: torch.Tensor, t: torch.Tensor, t_prev: torch.Tensor) -> torch.Tensor:
        a_t = self.alphas_cumprod[t].view(-1, 1, 1, 1)  # lookalike: integer timesteps index a buffer
        a_prev = torch.where(
            (t_prev >= 0).view(-1, 1, 1, 1),
            self.alphas_cumprod[t_prev.clamp(min=0)].view(-1, 1, 1, 1),
            self.final_alpha.view(1, 1, 1, 1),
        )
        eps = self.eps_model(x_t)
        x0 = (x_t - (1 - a_t).sqrt() * eps) / a_t.sqrt()
        return a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps


def example():
    torch.manual_seed(0)
    eps_model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 3, 3, padding=1))
    model = DDIMStep(eps_model).to(torch.bfloat16)
    x_t = torch.randn(2, 3, 8, 8).to(torch.bfloat16)
    t = torch.tensor([50, 10])
    t_prev = torch.tensor([40, -1])
    return model, (x_t, t, t_prev)
