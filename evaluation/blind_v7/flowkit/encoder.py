import torch
from torch import nn

from .ops import coords_grid


class PositionalContextEncoder(nn.Module):
    """Context encoder that adds a learned embedding of the pixel grid (RoMa/GMFlow-style pos conv)."""

    def __init__(self, dim: int = 32, stride: int = 8) -> None:
        super().__init__()
        self.stride = stride
        self.cnet = nn.Sequential(nn.Conv2d(3, dim, stride, stride=stride), nn.ReLU())
        self.pos_conv = nn.Conv2d(2, dim, 1)
        self.norm = nn.GroupNorm(4, dim)

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        ctx = self.cnet(image)
        B, _, h, w = ctx.shape
        scale = torch.tensor([w - 1, h - 1], device=image.device).view(1, 2, 1, 1)  # lookalike: integer vector
        pos = self.pos_conv(coords_grid(B, h, w, device=image.device) / scale)  # expect: DTL003
        return torch.relu(self.norm(ctx + pos))


def example():
    torch.manual_seed(0)
    model = PositionalContextEncoder().to(torch.bfloat16)
    return model, (torch.randn(2, 3, 48, 64, dtype=torch.bfloat16),)
