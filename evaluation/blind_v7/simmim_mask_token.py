import torch
from torch import nn


class MaskedImageEncoder(nn.Module):
    """SimMIM/BEiT encoder input: masked patches replaced by a learned token, mask cast with type_as."""

    def __init__(self, patch: int = 4, dim: int = 32) -> None:
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.norm = nn.LayerNorm(dim)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        B, L, _ = x.shape
        mask_tokens = self.mask_token.expand(B, L, -1)
        w = mask.flatten(1).unsqueeze(-1).type_as(mask_tokens)  # lookalike: mask cast to the activation dtype
        x = x * (1.0 - w) + mask_tokens * w
        return self.norm(x)


def example():
    torch.manual_seed(0)
    model = MaskedImageEncoder().to(torch.bfloat16)
    mask = torch.rand(2, 4, 4) < 0.6
    return model, (torch.randn(2, 3, 16, 16, dtype=torch.bfloat16), mask)
