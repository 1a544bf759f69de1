import numpy as np
import torch
from torch import nn


def get_2d_sincos_pos_embed(embed_dim: int, grid_size: int) -> np.ndarray:
    """MAE's fixed 2D sin-cos table, (grid_size**2, embed_dim), float64 NumPy."""
    gh, gw = np.meshgrid(np.arange(grid_size, dtype=np.float32), np.arange(grid_size, dtype=np.float32))
    omega = 1.0 / 10000 ** (np.arange(embed_dim // 4, dtype=np.float64) / (embed_dim / 4.0))
    out_h = np.einsum("m,d->md", gh.reshape(-1), omega)
    out_w = np.einsum("m,d->md", gw.reshape(-1), omega)
    return np.concatenate([np.sin(out_h), np.cos(out_h), np.sin(out_w), np.cos(out_w)], axis=1)


class PatchEmbedWithFixedPos(nn.Module):
    """ViT patch embedding whose fixed position table is created in __init__ and registered as a buffer."""

    def __init__(self, img_size: int = 16, patch: int = 4, dim: int = 32) -> None:
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)
        pos = torch.from_numpy(get_2d_sincos_pos_embed(dim, img_size // patch)).float().unsqueeze(0)
        self.register_buffer("pos_embed", pos, persistent=False)  # lookalike: registered, follows .to()
        self.register_buffer("cls_pos", torch.zeros(1, 1, dim), persistent=False)  # lookalike: registered
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.proj(x).flatten(2).transpose(1, 2) + self.pos_embed
        cls = (self.cls_token + self.cls_pos).expand(x.shape[0], -1, -1)
        return torch.cat([cls, x], dim=1)


def example():
    torch.manual_seed(0)
    model = PatchEmbedWithFixedPos().to(torch.bfloat16)
    return model, (torch.randn(2, 3, 16, 16, dtype=torch.bfloat16),)
