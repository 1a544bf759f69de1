"""Deterministic DDIM sampler (latent-diffusion layout) driving a small noise-prediction network."""
import numpy as np
import torch
import torch.nn as nn


class EpsNet(nn.Module):
    def __init__(self, ch: int = 4, cond_dim: int = 8, steps: int = 1000):
        super().__init__()
        self.t_embed = nn.Embedding(steps, ch)
        self.cond = nn.Linear(cond_dim, ch)
        self.body = nn.Sequential(nn.Conv2d(ch, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, ch, 3, padding=1))

    def forward(self, x: torch.Tensor, t: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
        h = x + (self.t_embed(t) + self.cond(c))[:, :, None, None]
        return self.body(h)


class DDIMSampler:
    def __init__(self, model: nn.Module, num_timesteps: int = 1000, ddim_steps: int = 10):
        self.model = model
        betas = np.linspace(1e-4, 2e-2, num_timesteps)
        alphas_cumprod = np.cumprod(1.0 - betas)
        self.ddim_timesteps = np.arange(0, num_timesteps, num_timesteps // ddim_steps) + 1
        self.ddim_alphas = alphas_cumprod[self.ddim_timesteps].tolist()
        self.ddim_alphas_prev = [float(alphas_cumprod[0])] + self.ddim_alphas[:-1]

    @torch.no_grad()
    def p_sample_ddim(self, x: torch.Tensor, c: torch.Tensor, t: torch.Tensor, index: int) -> torch.Tensor:
        b, device = x.shape[0], x.device
        e_t = self.model(x, t, c)
        a_t = torch.full((b, 1, 1, 1), self.ddim_alphas[index], device=device)  # expect: DTL001
        a_prev = torch.full((b, 1, 1, 1), self.ddim_alphas_prev[index], device=device)  # expect: DTL001
        sqrt_one_minus_at = torch.full((b, 1, 1, 1), (1.0 - self.ddim_alphas[index]) ** 0.5, device=device)  # expect: DTL001
        pred_x0 = (x - sqrt_one_minus_at * e_t) / a_t.sqrt()
        dir_xt = (1.0 - a_prev).sqrt() * e_t
        return a_prev.sqrt() * pred_x0 + dir_xt

    @torch.no_grad()
    def sample(self, x_T: torch.Tensor, cond: torch.Tensor) -> torch.Tensor:
        img, b = x_T, x_T.shape[0]
        for i, step in enumerate(np.flip(self.ddim_timesteps)):
            index = len(self.ddim_timesteps) - i - 1
            ts = torch.full((b,), int(step), device=x_T.device, dtype=torch.long)  # lookalike: integer timesteps, dtype given
            img = self.p_sample_ddim(img, cond, ts, index)
        return img


def example():
    net = EpsNet().to(torch.bfloat16).eval()
    sampler = DDIMSampler(net, ddim_steps=4)
    x_T = torch.randn(2, 4, 8, 8, dtype=torch.bfloat16)
    cond = torch.randn(2, 8, dtype=torch.bfloat16)
    return sampler.sample, (x_T, cond)
