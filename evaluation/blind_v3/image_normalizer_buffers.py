import torch
from torch import nn


class PixelNormalizer(nn.Module):
    """Detectron2-style pixel normalisation with registered mean/std buffers."""

    def __init__(self, pixel_mean=(123.675, 116.28, 103.53), pixel_std=(58.395, 57.12, 57.375)):
        super().__init__()
        self.register_buffer("pixel_mean", torch.tensor(pixel_mean).view(-1, 1, 1), persistent=False)  # lookalike: registered buffer
        self.register_buffer("pixel_std", torch.tensor(pixel_std).view(-1, 1, 1), persistent=False)  # lookalike: registered buffer
        self.gamma = nn.Parameter(torch.ones(3, 1, 1))  # lookalike: parameter
        self.backbone = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = (images - self.pixel_mean) / self.pixel_std * self.gamma
        return self.backbone(x)


def example():
    torch.manual_seed(0)
    model = PixelNormalizer().to(torch.bfloat16)
    images = (torch.rand(2, 3, 8, 8) * 255).to(torch.bfloat16)
    return model, (images,)
