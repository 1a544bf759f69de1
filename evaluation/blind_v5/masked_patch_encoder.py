import torch
from torch import nn


class MaskedPatchEncoder(nn.Module):
    """MAE encoder input: patch embedding, then per-sample random masking by argsort of noise."""

    def __init__(self, patch: int = 4, in_channels: int = 3, dim: int = 32, num_patches: int = 64, mask_ratio: float = 0.75):
        super().__init__()
        self.mask_ratio = mask_ratio
        self.patch_embed = nn.Conv2d(in_channels, dim, patch, stride=patch)
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches, dim))
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def random_masking(self, x):
        N, L, D = x.shape
        len_keep = int(L * (1 - self.mask_ratio))
        noise = torch.rand(N, L, device=x.device)  # lookalike: only ranked by argsort
        ids_shuffle = torch.argsort(noise, dim=1)
        ids_restore = torch.argsort(ids_shuffle, dim=1)
        ids_keep = ids_shuffle[:, :len_keep]
        x_masked = torch.gather(x, 1, ids_keep.unsqueeze(-1).expand(-1, -1, D))
        mask = torch.ones(N, L, device=x.device, dtype=x.dtype)
        mask[:, :len_keep] = 0
        mask = torch.gather(mask, 1, ids_restore)
        return x_masked, mask, ids_restore

    def forward(self, imgs):
        x = self.patch_embed(imgs).flatten(2).transpose(1, 2) + self.pos_embed
        x, mask, ids_restore = self.random_masking(x)
        x = x + self.mlp(self.norm(x))
        return x, mask, ids_restore


def example():
    torch.manual_seed(0)
    model = MaskedPatchEncoder().to(torch.bfloat16)
    imgs = torch.randn(2, 3, 32, 32, dtype=torch.bfloat16)
    return model, (imgs,)
