import torch
from torch import nn


class PixelStandardizer(nn.Module):
    """ImageNet standardisation with plain tensor attributes that are cast where they are used."""

    def __init__(self):
        super().__init__()
        self.mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)  # lookalike: cast before use
        self.std = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)  # lookalike: cast before use
        self.eps = torch.tensor(1e-6)  # lookalike: 0-dim scalar
        self.stem = nn.Conv2d(3, 16, 3, padding=1)

    def forward(self, images):
        x = (images - self.mean.to(images)) / (self.std.to(images) + self.eps)
        return self.stem(x)


def example():
    torch.manual_seed(0)
    model = PixelStandardizer().to(torch.bfloat16)
    images = torch.rand(2, 3, 16, 16).to(torch.bfloat16)
    return model, (images,)
