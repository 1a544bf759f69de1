"""Input normalization with dataset statistics computed offline in NumPy."""

import numpy as np
import torch
import torch.nn as nn


class DatasetNormalizer(nn.Module):
    def __init__(self, stats_mean=None, stats_std=None, color_matrix=None):
        super().__init__()
        self.stats_mean = np.asarray(stats_mean if stats_mean is not None else [0.45, 0.44, 0.40])
        self.stats_std = np.asarray(stats_std if stats_std is not None else [0.22, 0.22, 0.23])
        self.color_matrix = color_matrix if color_matrix is not None else np.eye(3) * 0.9 + 0.1 / 3
        self.conv = nn.Conv2d(3, 8, 1)

    def forward(self, images):
        mean = torch.from_numpy(self.stats_mean).to(images).view(1, 3, 1, 1)
        std = torch.as_tensor(self.stats_std, dtype=images.dtype, device=images.device).view(1, 3, 1, 1)
        M = torch.tensor(self.color_matrix, dtype=images.dtype, device=images.device)
        x = torch.einsum("ij,bjhw->bihw", M, (images - mean) / std)
        return self.conv(x)


def example():
    return DatasetNormalizer().to(torch.bfloat16), (torch.rand(2, 3, 5, 5, dtype=torch.bfloat16),)
