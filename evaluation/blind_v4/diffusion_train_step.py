import torch
import torch.nn as nn


class DiffusionTrainStep(nn.Module):
    """DDPM noising with registered schedule buffers and *_like noise."""

    def __init__(self, steps: int = 100):
        super().__init__()
        betas = torch.linspace(1e-4, 0.02, steps)
        alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.register_buffer("sqrt_ac", alphas_cumprod.sqrt())  # lookalike: registered buffer
        self.register_buffer("sqrt_1m_ac", (1.0 - alphas_cumprod).sqrt())
        self.net = nn.Conv2d(3, 3, 3, padding=1)

    def forward(self, x0, t):
        noise = torch.randn_like(x0)  # lookalike: *_like factory
        xt = self.sqrt_ac[t].view(-1, 1, 1, 1) * x0 + self.sqrt_1m_ac[t].view(-1, 1, 1, 1) * noise
        return self.net(xt) - noise


def example():
    model = DiffusionTrainStep().to(torch.bfloat16)
    return model, (torch.randn(2, 3, 8, 8, dtype=torch.bfloat16), torch.randint(0, 100, (2,)))
