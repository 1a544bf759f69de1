import torch
import torch.nn as nn


class MaskedEncoder(nn.Module):
    """MAE-style random masking: the random noise only produces integer indices."""

    def __init__(self, encoder: nn.Module, dim: int = 768, patch: int = 16, num_patches: int = 196):
        super().__init__()
        self.encoder = encoder
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches, dim))  # lookalike: parameter

    def random_masking(self, x, mask_ratio: float):
        N, L, D = x.shape
        len_keep = int(L * (1 - mask_ratio))
        noise = torch.rand(N, L, device=x.device)  # lookalike: only feeds argsort (integer indices)
        ids_shuffle = torch.argsort(noise, dim=1)
        ids_restore = torch.argsort(ids_shuffle, dim=1)
        ids_keep = ids_shuffle[:, :len_keep]
        x_masked = torch.gather(x, 1, ids_keep.unsqueeze(-1).expand(-1, -1, D))
        return x_masked, ids_restore

    def forward(self, imgs):
        tokens = self.patch_embed(imgs).flatten(2).transpose(1, 2) + self.pos_embed
        kept, ids_restore = self.random_masking(tokens, 0.75)
        return self.encoder(kept), ids_restore
