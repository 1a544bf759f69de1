import torch
from torch import nn


class FrustumLifter(nn.Module):
    """Lift-Splat style: predict per-pixel depth, back-project pixels into the ego frame."""

    def __init__(self, in_ch: int = 8, n_bins: int = 6, H: int = 4, W: int = 6):
        super().__init__()
        self.depth_head = nn.Conv2d(in_ch, n_bins, 1)
        ys, xs = torch.meshgrid(torch.linspace(0, 31, H), torch.linspace(0, 63, W), indexing="ij")
        self.register_buffer("pix", torch.stack([xs, ys, torch.ones_like(xs)], -1), persistent=False)  # lookalike: buffer
        self.register_buffer("bins", torch.linspace(1.0, 40.0, n_bins), persistent=False)  # lookalike: buffer

    def forward(self, img_feats: torch.Tensor, intrins, rots, trans) -> torch.Tensor:
        B, N = intrins.shape[:2]
        prob = self.depth_head(img_feats).softmax(dim=1)
        depth = (prob * self.bins.view(1, -1, 1, 1)).sum(dim=1)
        pts = self.pix * depth[..., None]
        pts = pts.view(B, N, -1, 3)
        pts = torch.matmul(pts, torch.inverse(intrins).transpose(-1, -2))  # expect: DTL002
        pts = torch.matmul(pts, rots.transpose(-1, -2))  # expect: DTL002
        pts = pts + trans[:, :, None, :]  # expect: DTL002
        return pts


def example():
    torch.manual_seed(0)
    B, N = 1, 2
    model = FrustumLifter().to(torch.bfloat16)
    feats = torch.randn(B * N, 8, 4, 6).to(torch.bfloat16)
    intrins = torch.tensor([[30.0, 0.0, 32.0], [0.0, 30.0, 16.0], [0.0, 0.0, 1.0]]).repeat(B, N, 1, 1)
    rots = torch.eye(3).repeat(B, N, 1, 1)
    trans = torch.randn(B, N, 3)
    return model, (feats, intrins, rots, trans)
