import torch
import torch.nn.functional as F
from torch import nn


class SpatialTransformer(nn.Module):
    """STN: a localisation net regresses an affine residual around the identity transform."""

    def __init__(self, in_channels: int = 16):
        super().__init__()
        self.loc = nn.Sequential(
            nn.Conv2d(in_channels, 8, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(8, 6),
        )
        nn.init.zeros_(self.loc[-1].weight)
        nn.init.zeros_(self.loc[-1].bias)

    def forward(self, x):
        theta = self.loc(x).view(-1, 2, 3)
        theta = theta + torch.eye(2, 3, device=x.device)  # expect: DTL001
        grid = F.affine_grid(theta, list(x.shape), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False)


def example():
    torch.manual_seed(0)
    model = SpatialTransformer().to(torch.bfloat16)
    x = torch.randn(2, 16, 12, 12, dtype=torch.bfloat16)
    return model, (x,)
