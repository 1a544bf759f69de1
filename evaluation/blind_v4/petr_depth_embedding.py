import torch
import torch.nn as nn


class DepthPositionEmbedding(nn.Module):
    """PETR-style 3D position embedding from predicted per-pixel depth."""

    def __init__(self, in_ch: int = 32, dim: int = 32, stride: int = 16):
        super().__init__()
        self.stride = stride
        self.depth_head = nn.Conv2d(in_ch, 1, 1)
        self.embed = nn.Sequential(nn.Linear(3, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, img_feats, cam2imgs):
        B, N, C, H, W = img_feats.shape
        depth = self.depth_head(img_feats.flatten(0, 1)).sigmoid().view(B, N, H, W, 1) * 50 + 1
        ys, xs = torch.meshgrid(
            torch.arange(H, device=img_feats.device), torch.arange(W, device=img_feats.device), indexing="ij"
        )
        u = (xs[..., None] * self.stride) * depth
        v = (ys[..., None] * self.stride) * depth
        coords = torch.cat([u, v, depth, torch.ones_like(depth)], dim=-1)
        img2lidars = torch.linalg.inv(cam2imgs)
        coords3d = torch.matmul(
            img2lidars[:, :, None, None],  # expect: DTL002
            coords[..., None],
        ).squeeze(-1)[..., :3]
        return self.embed(coords3d)


def example():
    model = DepthPositionEmbedding().to(torch.bfloat16)
    K = torch.tensor([[100.0, 0, 64, 0], [0, 100.0, 48, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    cam2imgs = K.expand(1, 3, 4, 4).contiguous()
    return model, (torch.randn(1, 3, 32, 6, 8, dtype=torch.bfloat16), cam2imgs)
