import torch
from torch import nn


class LiftGeometry(nn.Module):
    """LSS/BEVDet-style lifting: per-pixel depth to ego-frame points with rots, trans, intrinsics."""

    def __init__(self, in_channels: int = 32, feat_hw=(4, 6), image_hw=(64, 96)):
        super().__init__()
        H, W = feat_hw
        xs = torch.linspace(0, image_hw[1] - 1, W).view(1, W).expand(H, W)
        ys = torch.linspace(0, image_hw[0] - 1, H).view(H, 1).expand(H, W)
        self.register_buffer("pixel_grid", torch.stack([xs, ys], -1), persistent=False)  # lookalike: buffer
        self.depth_head = nn.Conv2d(in_channels, 1, 1)

    def forward(self, img_feats, rots, trans, intrinsics):
        B, N, C, H, W = img_feats.shape
        depth = self.depth_head(img_feats.flatten(0, 1)).exp().view(B, N, H, W, 1)
        uv = self.pixel_grid.expand(B, N, H, W, 2)
        pts = torch.cat([uv * depth, depth], dim=-1).unsqueeze(-1)
        combine = rots.matmul(torch.inverse(intrinsics))  # lookalike: camera-only product
        ego = (
            combine.view(B, N, 1, 1, 3, 3).matmul(pts).squeeze(-1)  # expect: DTL002
            + trans.view(B, N, 1, 1, 3)  # expect: DTL002
        )
        return ego


def example():
    torch.manual_seed(0)
    model = LiftGeometry().to(torch.bfloat16)
    B, N = 2, 3
    img_feats = torch.randn(B, N, 32, 4, 6, dtype=torch.bfloat16)
    rots = torch.eye(3).expand(B, N, 3, 3).clone()
    trans = torch.randn(B, N, 3)
    intrinsics = torch.tensor([[50.0, 0.0, 48.0], [0.0, 50.0, 32.0], [0.0, 0.0, 1.0]]).expand(B, N, 3, 3).clone()
    return model, (img_feats, rots, trans, intrinsics)
