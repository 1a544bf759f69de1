import torch
from torch import nn
import torch.nn.functional as F

from .ops import coords_grid


class ConvexUpsampler(nn.Module):
    """RAFT convex upsampling of a 1/8 flow with a learned 3x3 mask."""

    def __init__(self, hidden: int = 32, factor: int = 8) -> None:
        super().__init__()
        self.factor = factor
        self.mask = nn.Sequential(
            nn.Conv2d(hidden, 64, 3, padding=1), nn.ReLU(inplace=True), nn.Conv2d(64, 9 * factor * factor, 1)
        )

    def forward(self, net: torch.Tensor, flow: torch.Tensor) -> torch.Tensor:
        N, _, H, W = flow.shape
        f = self.factor
        base = coords_grid(N, H, W, device=flow.device).to(flow.dtype)  # lookalike: caller casts the float32 grid back
        target = base + flow
        mask = self.mask(net).view(N, 1, 9, f, f, H, W).softmax(dim=2)
        up = F.unfold(f * (target - base), [3, 3], padding=1).view(N, 2, 9, 1, 1, H, W)
        up = torch.sum(mask * up, dim=2).permute(0, 1, 4, 2, 5, 3)
        return up.reshape(N, 2, f * H, f * W)


def example():
    torch.manual_seed(0)
    model = ConvexUpsampler().to(torch.bfloat16)
    net = torch.randn(1, 32, 6, 8, dtype=torch.bfloat16)
    flow = torch.randn(1, 2, 6, 8, dtype=torch.bfloat16)
    return model, (net, flow)
