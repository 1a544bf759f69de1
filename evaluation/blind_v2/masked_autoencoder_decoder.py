"""MAE decoder input: scatter visible-token embeddings back and fill masked slots."""

import torch
import torch.nn as nn


class MAEDecoderEmbed(nn.Module):
    def __init__(self, enc_dim: int = 32, dec_dim: int = 16, num_patches: int = 16):
        super().__init__()
        self.proj = nn.Linear(enc_dim, dec_dim)
        self.mask_token = nn.Parameter(torch.zeros(dec_dim))
        self.pos_embed = nn.Parameter(torch.randn(1, num_patches, dec_dim) * 0.02)

    def forward(self, visible_tokens, visible_mask):
        """visible_tokens: (B, V, enc_dim) encoder output; visible_mask: (B, L) bool, V per row."""
        B, L = visible_mask.shape
        x = self.proj(visible_tokens)
        full = torch.empty(B, L, x.shape[-1], device=x.device)  # expect: DTL001
        full.masked_scatter_(visible_mask[..., None], x)
        full[~visible_mask] = self.mask_token
        return full + self.pos_embed


def example():
    B, L, V = 2, 16, 4
    model = MAEDecoderEmbed().to(torch.bfloat16)
    noise = torch.rand(B, L)
    keep = noise.argsort(dim=1)[:, :V]
    visible_mask = torch.zeros(B, L, dtype=torch.bool).scatter_(1, keep, True)
    tokens = torch.randn(B, V, 32, dtype=torch.bfloat16)
    return model, (tokens, visible_mask)
