import torch
import torch.nn.functional as F
from torch import nn


class NormalizedBackbone(nn.Module):
    """Detectron-style backbone wrapper that normalises raw 0-255 pixels itself."""

    def __init__(self, pixel_mean=(123.675, 116.28, 103.53), pixel_std=(58.395, 57.12, 57.375)):
        super().__init__()
        self.pixel_mean = torch.tensor(pixel_mean).view(1, 3, 1, 1)  # expect: DTL005
        self.pixel_std = torch.tensor(pixel_std).view(1, 3, 1, 1)  # expect: DTL005
        self.stem = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.stage = nn.Sequential(nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, images):
        x = (images - self.pixel_mean) / self.pixel_std
        x = F.relu(self.stem(x))
        return self.stage(x)


def example():
    torch.manual_seed(0)
    model = NormalizedBackbone().to(torch.bfloat16)
    images = (torch.rand(2, 3, 32, 32) * 255).round().to(torch.bfloat16)
    return model, (images,)
