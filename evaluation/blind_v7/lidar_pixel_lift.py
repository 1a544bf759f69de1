import torch
from torch import nn


class DepthDistributionLift(nn.Module):
    """Lift-Splat style lifting: per-pixel categorical depth, rays through the inverse intrinsics."""

    def __init__(self, in_channels: int = 16, n_depth: int = 8, d_min: float = 1.0, d_max: float = 9.0,
                 height: int = 6, width: int = 8) -> None:
        super().__init__()
        self.depth_net = nn.Conv2d(in_channels, n_depth, 1)
        self.register_buffer("depth_bins", torch.linspace(d_min, d_max, n_depth))
        v, u = torch.meshgrid(torch.arange(height) + 0.5, torch.arange(width) + 0.5, indexing="ij")
        self.register_buffer("uv1", torch.stack([u, v, torch.ones_like(u)]).flatten(1)[None])

    def forward(self, feats: torch.Tensor, intrinsics: torch.Tensor) -> torch.Tensor:
        # feats (B, C, H, W); intrinsics (B, 3, 3) as the dataset gives them
        B, _, H, W = feats.shape
        uv1 = self.uv1.expand(B, -1, -1)
        prob = self.depth_net(feats).softmax(dim=1).flatten(2)
        depth = (prob * self.depth_bins[None, :, None]).sum(1, keepdim=True)
        rays = torch.bmm(
            torch.inverse(intrinsics),  # expect: DTL002
            uv1 * depth,
        )
        return rays.view(B, 3, H, W)


def example():
    torch.manual_seed(0)
    model = DepthDistributionLift().to(torch.bfloat16)
    feats = torch.randn(2, 16, 6, 8, dtype=torch.bfloat16)
    K = torch.tensor([[100.0, 0, 4.0], [0, 100.0, 3.0], [0, 0, 1]]).repeat(2, 1, 1)
    return model, (feats, K)
