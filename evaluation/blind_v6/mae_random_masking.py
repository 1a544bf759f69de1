"""MAE encoder input: per-sample random masking by argsort of uniform noise."""
import torch
import torch.nn as nn


class RandomMasking(nn.Module):
    def __init__(self, dim: int = 32, mask_ratio: float = 0.75):
        super().__init__()
        self.mask_ratio = mask_ratio
        self.mask_token = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, x: torch.Tensor):
        N, L, D = x.shape
        len_keep = int(L * (1 - self.mask_ratio))
        noise = torch.rand(N, L, device=x.device)  # lookalike: only sorted into indices
        ids_shuffle = torch.argsort(noise, dim=1)
        ids_restore = torch.argsort(ids_shuffle, dim=1)
        ids_keep = ids_shuffle[:, :len_keep]
        x_masked = torch.gather(x, dim=1, index=ids_keep.unsqueeze(-1).repeat(1, 1, D))
        mask = torch.ones([N, L], device=x.device, dtype=torch.bool)  # lookalike: bool mask
        mask[:, :len_keep] = False
        mask = torch.gather(mask, dim=1, index=ids_restore)
        return x_masked, mask, ids_restore

    def unshuffle(self, x_masked: torch.Tensor, ids_restore: torch.Tensor) -> torch.Tensor:
        N, L = ids_restore.shape
        mask_tokens = self.mask_token.repeat(N, L - x_masked.shape[1], 1)
        x_ = torch.cat([x_masked, mask_tokens], dim=1)
        return torch.gather(x_, dim=1, index=ids_restore.unsqueeze(-1).repeat(1, 1, x_masked.shape[2]))


class MaskedAutoencoderStub(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.masking = RandomMasking(dim)
        self.encoder = nn.Linear(dim, dim)
        self.decoder = nn.Linear(dim, dim)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        latent, mask, ids_restore = self.masking(tokens)
        full = self.masking.unshuffle(self.encoder(latent), ids_restore)
        return self.decoder(full) * mask[..., None].to(full.dtype)


def example():
    m = MaskedAutoencoderStub().to(torch.bfloat16)
    return m, (torch.randn(2, 16, 32, dtype=torch.bfloat16),)
