import torch
from torch import nn


class TemporalCoordFusion(nn.Module):
    """Video feature fusion that appends a normalised frame-time channel before a 3D conv (CoordConv in time)."""

    def __init__(self, channels: int = 16, out_channels: int = 16) -> None:
        super().__init__()
        self.fuse = nn.Conv3d(channels + 1, out_channels, kernel_size=(3, 1, 1), padding=(1, 0, 0))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, C, T, H, W = x.shape
        t_idx = torch.arange(T, device=x.device).view(1, 1, T, 1, 1).expand(B, 1, T, H, W)
        x = torch.cat([x, t_idx.float() / max(T - 1, 1)], dim=1)  # expect: DTL003
        return self.fuse(x)


def example():
    torch.manual_seed(0)
    model = TemporalCoordFusion().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 5, 6, 6, dtype=torch.bfloat16),)
