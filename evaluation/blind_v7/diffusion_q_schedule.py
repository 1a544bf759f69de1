import torch
from torch import nn


class NoisePredictor(nn.Module):
    def __init__(self, channels: int = 3, hidden: int = 16) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(channels, hidden, 3, padding=1), nn.SiLU(), nn.Conv2d(hidden, channels, 3, padding=1))

    def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        return self.net(x)


class GaussianDiffusionTrainer(nn.Module):
    """DDPM training wrapper: noise a clean batch at random timesteps and predict the noise."""

    def __init__(self, model: nn.Module, beta_1: float = 1e-4, beta_T: float = 0.02, T: int = 100) -> None:
        super().__init__()
        self.model = model
        self.T = T
        betas = torch.linspace(beta_1, beta_T, T, dtype=torch.float64)
        alphas_bar = torch.cumprod(1.0 - betas, dim=0)
        self.sqrt_alphas_bar = torch.sqrt(alphas_bar).float()  # expect: DTL005
        self.sqrt_one_minus_alphas_bar = torch.sqrt(1.0 - alphas_bar).float()  # expect: DTL005

    def forward(self, x_0: torch.Tensor, t: torch.Tensor, noise: torch.Tensor) -> torch.Tensor:
        a = self.sqrt_alphas_bar[t].view(-1, 1, 1, 1)
        s = self.sqrt_one_minus_alphas_bar[t].view(-1, 1, 1, 1)
        x_t = a * x_0 + s * noise
        return self.model(x_t, t)


def example():
    torch.manual_seed(0)
    model = GaussianDiffusionTrainer(NoisePredictor()).to(torch.bfloat16)
    x0 = torch.randn(2, 3, 8, 8, dtype=torch.bfloat16)
    noise = torch.randn(2, 3, 8, 8, dtype=torch.bfloat16)
    return model, (x0, torch.tensor([3, 70]), noise)
