import torch
from torch import nn


def soft_histogram(values: torch.Tensor, centers: torch.Tensor, bandwidth: float) -> torch.Tensor:
    """Differentiable histogram of values (B, C, N) over bin centres (K,) -> (B, C, K)."""
    diff = values[..., None] - centers
    weights = torch.exp(-0.5 * (diff / bandwidth) ** 2)
    return weights.sum(dim=2) / values.shape[-1]


class HistogramPooling(nn.Module):
    """Learnable-histogram pooling for image enhancement / color transfer networks (HistoGAN-like)."""

    def __init__(self, channels: int = 8, bins: int = 16) -> None:
        super().__init__()
        self.bins = bins
        self.proj = nn.Conv2d(3, channels, 1)
        self.head = nn.Linear(channels * bins, 32)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        tiles = torch.sigmoid(self.proj(img)).flatten(2)
        hist = soft_histogram(tiles, torch.linspace(0, 1, self.bins, device=tiles.device), 1.0 / self.bins)  # expect: DTL001
        return self.head(hist.flatten(1))


def example():
    torch.manual_seed(0)
    model = HistogramPooling().to(torch.bfloat16)
    return model, (torch.rand(2, 3, 16, 16, dtype=torch.bfloat16),)
