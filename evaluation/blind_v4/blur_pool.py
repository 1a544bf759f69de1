import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def gaussian_kernel(size: int, sigma: float):
    ax = np.arange(size) - (size - 1) / 2.0
    k = np.exp(-0.5 * (ax / sigma) ** 2)
    k2 = np.outer(k, k)
    return torch.from_numpy(k2 / k2.sum())


class BlurPool(nn.Module):
    """Anti-aliased downsampling: depthwise Gaussian blur, then strided conv."""

    def __init__(self, channels: int = 16, size: int = 5, sigma: float = 1.0):
        super().__init__()
        self.size, self.sigma = size, sigma
        self.down = nn.Conv2d(channels, channels, 3, stride=2, padding=1)

    def forward(self, x):
        C = x.shape[1]
        kernel = gaussian_kernel(self.size, self.sigma)  # expect: DTL004
        kernel = kernel.to(x.device)[None, None].expand(C, 1, -1, -1)
        x = F.conv2d(x, kernel, padding=self.size // 2, groups=C)
        return self.down(x)


def example():
    model = BlurPool().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 16, 16, dtype=torch.bfloat16),)
