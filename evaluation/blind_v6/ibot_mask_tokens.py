"""iBOT / DINOv2 student input: replace masked patch tokens with a learned mask token."""
import torch
import torch.nn as nn


class MaskedPatchEmbed(nn.Module):
    def __init__(self, patch: int = 4, dim: int = 32):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, patch, stride=patch)
        self.mask_token = nn.Parameter(torch.zeros(1, dim))
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, x: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
        x = self.proj(x).flatten(2).transpose(1, 2)
        x = torch.where(masks.unsqueeze(-1), self.mask_token.to(x.dtype).unsqueeze(0), x)  # lookalike: bool mask, token cast
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        return torch.cat([cls, x], dim=1)


def random_block_masks(batch: int, n_tokens: int, ratio: float, generator: torch.Generator) -> torch.Tensor:
    scores = torch.rand(batch, n_tokens, generator=generator)
    return scores < ratio  # lookalike: bool masks made by the collate step


def example():
    m = MaskedPatchEmbed().to(torch.bfloat16)
    g = torch.Generator().manual_seed(0)
    masks = random_block_masks(2, 16, 0.4, g)
    return m, (torch.randn(2, 3, 16, 16, dtype=torch.bfloat16), masks)
