"""ImageNet normalization + color jitter module that keeps its constants as plain attributes
and moves them next to the input on use."""

import torch
import torch.nn as nn


class Normalize(nn.Module):
    def __init__(self, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
        super().__init__()
        self.mean = torch.tensor(mean).view(1, 3, 1, 1)
        self.std = torch.tensor(std).view(1, 3, 1, 1)
        self.gray_weights = torch.tensor([0.299, 0.587, 0.114])

    def forward(self, x, saturation=None):
        if saturation is not None:
            gray = torch.einsum("bchw,c->bhw", x, self.gray_weights.to(x))[:, None]
            x = gray + (x - gray) * saturation[:, None, None, None]
        mean = self.mean.to(device=x.device, dtype=x.dtype)
        std = self.std.type_as(x)
        return (x - mean) / std


def example():
    norm = Normalize().to(torch.bfloat16)
    x = torch.rand(2, 3, 4, 4, dtype=torch.bfloat16)
    sat = torch.rand(2, dtype=torch.bfloat16) + 0.5
    return norm, (x, sat)
