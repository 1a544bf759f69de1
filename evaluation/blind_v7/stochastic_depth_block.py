import torch
from torch import nn


class StochasticDepth(nn.Module):
    """Per-sample residual dropping (ConvNeXt/ViT blocks)."""

    def __init__(self, drop_prob: float = 0.2) -> None:
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.drop_prob == 0.0 or not self.training:
            return x
        keep = torch.zeros(x.shape[0], 1, 1, 1, device=x.device).uniform_() > self.drop_prob
        return x * keep.float() / (1.0 - self.drop_prob)  # expect: DTL003


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim: int = 32, drop_path: float = 0.2) -> None:
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.LayerNorm(dim)
        self.pwconv1 = nn.Linear(dim, 4 * dim)
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(1e-6 * torch.ones(dim))
        self.drop_path = StochasticDepth(drop_path)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm(self.dwconv(x).permute(0, 2, 3, 1))
        h = self.gamma * self.pwconv2(nn.functional.gelu(self.pwconv1(h)))
        return x + self.drop_path(h.permute(0, 3, 1, 2))


def example():
    torch.manual_seed(0)
    model = ConvNeXtBlock().train().to(torch.bfloat16)
    return model, (torch.randn(4, 32, 8, 8, dtype=torch.bfloat16),)
