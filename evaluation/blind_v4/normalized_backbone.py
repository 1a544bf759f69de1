import torch
import torch.nn as nn


class NormalizedStem(nn.Module):
    """Backbone stem that normalizes raw pixels with the pretraining statistics."""

    def __init__(self, pixel_mean=(123.675, 116.28, 103.53), pixel_std=(58.395, 57.12, 57.375)):
        super().__init__()
        self.pixel_mean = torch.tensor(pixel_mean).view(-1, 1, 1)  # expect: DTL005
        self.pixel_std = torch.tensor(pixel_std).view(-1, 1, 1)  # expect: DTL005
        self.stem = nn.Conv2d(3, 16, 3, stride=2, padding=1)

    def forward(self, images):
        x = (images - self.pixel_mean) / self.pixel_std
        return torch.relu(self.stem(x))


def example():
    model = NormalizedStem().to(torch.bfloat16)
    return model, ((torch.rand(2, 3, 32, 32) * 255).to(torch.bfloat16),)
