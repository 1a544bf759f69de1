import numpy as np
import torch
from torch import nn


def add_coord_channels(x: torch.Tensor) -> torch.Tensor:
    """CoordConv: append normalised y/x coordinate channels in the input's dtype."""
    B, _, H, W = x.shape
    ys = torch.linspace(-1.0, 1.0, H, device=x.device).to(x.dtype)  # lookalike: cast right after creation
    xs = torch.linspace(-1.0, 1.0, W, device=x.device).type_as(x)  # lookalike: cast right after creation
    yy, xx = torch.meshgrid(ys, xs, indexing="ij")
    return torch.cat([x, yy.expand(B, 1, H, W), xx.expand(B, 1, H, W)], dim=1)


class CoordConvStem(nn.Module):
    def __init__(self, out_ch: int = 8):
        super().__init__()
        self.conv = nn.Conv2d(3 + 2, out_ch, 3, padding=1)
        self.color_gain = np.array([1.1, 1.0, 0.9])

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        gain = torch.from_numpy(self.color_gain).to(img.dtype).view(1, 3, 1, 1)  # lookalike: NumPy array cast to the input dtype
        bias = torch.tensor([0.01, 0.0, -0.01], device=img.device).to(img)  # lookalike: cast right after creation
        return self.conv(add_coord_channels(img * gain + bias.view(1, 3, 1, 1)))


def example():
    torch.manual_seed(0)
    model = CoordConvStem().to(torch.bfloat16)
    img = torch.randn(2, 3, 8, 10).to(torch.bfloat16)
    return model, (img,)
