import numpy as np
import torch
from torch import nn
import torch.nn.functional as F


def descriptor_sample(dim: int, seed: int = 0) -> np.ndarray:
    """Offline descriptor sample used to learn the whitening (synthetic here)."""
    rng = np.random.default_rng(seed)
    return np.abs(rng.standard_normal((4 * dim, dim))) / np.sqrt(dim)


class GeMWhitenedDescriptor(nn.Module):
    """Global descriptor: GeM pooling, L2, learned-offline per-dimension whitening, L2."""

    def __init__(self, in_channels: int = 16, dim: int = 16, p: float = 3.0) -> None:
        super().__init__()
        self.backbone = nn.Conv2d(3, in_channels, 3, padding=1)
        self.p = nn.Parameter(torch.ones(1) * p)
        sample = descriptor_sample(dim)
        self.desc_mean = np.mean(sample, axis=0)
        self.desc_scale = 1.0 / (np.std(sample, axis=0) + 1e-3)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.backbone(img)).clamp(min=1e-6)
        gem = F.avg_pool2d(x.pow(self.p), x.shape[-2:]).pow(1.0 / self.p).flatten(1)
        gem = F.normalize(gem, dim=-1)
        centred = gem - torch.from_numpy(self.desc_mean).to(img.device)  # expect: DTL004
        return F.normalize(centred * torch.from_numpy(self.desc_scale).to(img.device), dim=-1)  # expect: DTL004


def example():
    torch.manual_seed(0)
    model = GeMWhitenedDescriptor().to(torch.bfloat16)
    return model, (torch.rand(2, 3, 16, 16, dtype=torch.bfloat16),)
