import torch
import torch.nn as nn


class MaskedAutoencoderEncoder(nn.Module):
    """MAE per-sample random masking: keep a random subset of patch tokens."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.encoder = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim))

    def forward(self, tokens, mask_ratio: float = 0.75):
        B, N, C = tokens.shape
        len_keep = int(N * (1 - mask_ratio))
        noise = torch.rand(B, N, device=tokens.device)  # lookalike: only argsorted
        ids_shuffle = torch.argsort(noise, dim=1)
        ids_restore = torch.argsort(ids_shuffle, dim=1)
        ids_keep = ids_shuffle[:, :len_keep]
        kept = torch.gather(tokens, 1, ids_keep[..., None].expand(-1, -1, C))
        mask = torch.ones(B, N, dtype=torch.bool, device=tokens.device)  # lookalike: bool mask
        mask[:, :len_keep] = False
        mask = torch.gather(mask, 1, ids_restore)
        return self.encoder(kept), mask, ids_restore


def example():
    model = MaskedAutoencoderEncoder().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 32, dtype=torch.bfloat16),)
