import torch
from torch import nn
import torch.nn.functional as F

from .ops import bilinear_sampler, coords_grid, window_offsets


class LiteFlowEstimator(nn.Module):
    """Iterative flow refinement on 1/8 features with a local window lookup."""

    def __init__(self, dim: int = 32, radius: int = 1, iters: int = 2) -> None:
        super().__init__()
        self.radius = radius
        self.iters = iters
        self.fnet = nn.Conv2d(3, dim, 8, stride=8)
        k = (2 * radius + 1) ** 2
        self.update = nn.Sequential(
            nn.Conv2d(dim * k + 2, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 2, 3, padding=1)
        )

    def lookup(self, fmap: torch.Tensor, coords: torch.Tensor) -> torch.Tensor:
        B, _, h, w = coords.shape
        centroid = coords.permute(0, 2, 3, 1).reshape(B, h, w, 1, 2)
        window = centroid + window_offsets(self.radius, coords.device).view(1, 1, 1, -1, 2)  # expect: DTL001
        samples = bilinear_sampler(fmap, window.reshape(B, h, -1, 2))
        return samples.view(B, -1, h, w, window.shape[3]).permute(0, 1, 4, 2, 3).reshape(B, -1, h, w)

    def forward(self, image1: torch.Tensor, image2: torch.Tensor, flow_init: torch.Tensor) -> torch.Tensor:
        fmap2 = self.fnet(image2)
        B, _, h, w = fmap2.shape
        coords1 = coords_grid(B, h, w, device=image1.device) + flow_init  # expect: DTL003
        flow = flow_init
        for _ in range(self.iters):
            feats = self.lookup(fmap2, coords1)
            delta = self.update(torch.cat([feats, flow], dim=1))
            flow = flow + delta
            coords1 = coords1 + delta
        return F.interpolate(flow, scale_factor=8, mode="bilinear", align_corners=True) * 8


def example():
    torch.manual_seed(0)
    model = LiteFlowEstimator().to(torch.bfloat16)
    img1 = torch.randn(1, 3, 64, 64, dtype=torch.bfloat16)
    img2 = torch.randn(1, 3, 64, 64, dtype=torch.bfloat16)
    flow_init = torch.zeros(1, 2, 8, 8, dtype=torch.bfloat16)
    return model, (img1, img2, flow_init)
