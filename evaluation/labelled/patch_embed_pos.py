import torch
import torch.nn as nn


def build_2d_sincos(h: int, w: int, dim: int, temperature: float = 10000.0) -> torch.Tensor:
    gy, gx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    omega = 1.0 / temperature ** (torch.arange(dim // 4) / (dim // 4 - 1))  # lookalike: not tensor-taking
    y = gy.flatten()[:, None] * omega[None]
    x = gx.flatten()[:, None] * omega[None]
    return torch.cat([x.sin(), x.cos(), y.sin(), y.cos()], dim=1)


class PatchEmbedWithPos(nn.Module):
    def __init__(self, img_size: int = 224, patch: int = 16, dim: int = 768):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        grid = img_size // patch
        self.register_buffer("pos_embed", build_2d_sincos(grid, grid, dim)[None], persistent=False)  # lookalike: buffer
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))  # lookalike: parameter

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2) + self.pos_embed
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        return torch.cat([cls, x], dim=1)
