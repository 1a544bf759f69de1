import torch
from torch import nn


def soft_histogram(values, centers, bandwidth: float = 0.05):
    """Differentiable histogram of `values` (B, N) over bin `centers` (K,)."""
    diff = values.unsqueeze(-1) - centers
    weights = torch.exp(-0.5 * (diff / bandwidth) ** 2)
    hist = weights.sum(dim=1)
    return hist / hist.sum(dim=-1, keepdim=True).clamp(min=1e-6)


class ToneCurveHead(nn.Module):
    """Predicts a global tone curve from per-tile luminance histograms (HDRNet-like)."""

    def __init__(self, num_bins: int = 16, tile: int = 4):
        super().__init__()
        self.num_bins, self.tile = num_bins, tile
        self.curve = nn.Sequential(nn.Linear(num_bins, 32), nn.ReLU(), nn.Linear(32, num_bins))

    def forward(self, image):
        luma = (0.299 * image[:, 0] + 0.587 * image[:, 1] + 0.114 * image[:, 2]).clamp(0, 1)
        tiles = nn.functional.avg_pool2d(luma[:, None], self.tile).flatten(1)
        hist = soft_histogram(
            tiles,
            torch.linspace(0, 1, self.num_bins, device=tiles.device),  # expect: DTL001
        )
        return self.curve(hist).softmax(dim=-1).cumsum(dim=-1)


def example():
    torch.manual_seed(0)
    model = ToneCurveHead().to(torch.bfloat16)
    image = torch.rand(2, 3, 32, 32).to(torch.bfloat16)
    return model, (image,)
