import torch
import torch.nn as nn


class PixelNormalizer(nn.Module):
    """Detectron2-style pixel normalization with registered (non-persistent) buffers."""

    def __init__(self, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
        super().__init__()
        self.register_buffer("pixel_mean", torch.tensor(mean).view(-1, 1, 1), persistent=False)
        self.register_buffer("pixel_std", torch.tensor(std).view(-1, 1, 1), persistent=False)
        self.stem = nn.Conv2d(3, 16, 3, padding=1)

    def forward(self, images):
        x = (images - self.pixel_mean) / self.pixel_std  # lookalike: buffers follow module.to()
        return self.stem(x)


def example():
    model = PixelNormalizer().to(torch.bfloat16)
    return model, (torch.rand(2, 3, 16, 16, dtype=torch.bfloat16),)
