import torch
from torch import nn


def sincos_pos_embed_2d(x: torch.Tensor, h: int, w: int, temperature: float = 10000.0) -> torch.Tensor:
    """2D sin-cos position embedding (h*w, C) in the dtype of the tokens x."""
    dim = x.shape[-1]
    ys, xs = torch.meshgrid(
        torch.arange(h, device=x.device, dtype=x.dtype),  # lookalike: dtype given
        torch.arange(w, device=x.device, dtype=x.dtype),  # lookalike: dtype given
        indexing="ij",
    )
    omega = torch.arange(dim // 4, device=x.device, dtype=x.dtype) / (dim // 4)  # lookalike: dtype given
    omega = 1.0 / temperature ** omega
    ys = ys.flatten()[:, None] * omega[None, :]
    xs = xs.flatten()[:, None] * omega[None, :]
    return torch.cat([xs.sin(), xs.cos(), ys.sin(), ys.cos()], dim=1)


class PatchEmbedWithPos(nn.Module):
    def __init__(self, dim: int = 32, patch: int = 4):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        x = self.proj(img)
        h, w = x.shape[-2:]
        x = x.flatten(2).transpose(1, 2)
        return x + sincos_pos_embed_2d(x, h, w)[None]


def example():
    torch.manual_seed(0)
    model = PatchEmbedWithPos().to(torch.bfloat16)
    img = torch.randn(2, 3, 16, 24).to(torch.bfloat16)
    return model, (img,)
