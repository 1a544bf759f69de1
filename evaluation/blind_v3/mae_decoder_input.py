import torch
from torch import nn


class MAEDecoderInput(nn.Module):
    """Re-inserts mask tokens into the visible-token sequence before the MAE decoder."""

    def __init__(self, enc_dim: int = 32, dec_dim: int = 16):
        super().__init__()
        self.decoder_embed = nn.Linear(enc_dim, dec_dim)
        self.decoder_norm = nn.LayerNorm(dec_dim)

    def forward(self, latent: torch.Tensor, ids_restore: torch.Tensor) -> torch.Tensor:
        x = self.decoder_embed(latent)
        B, L_vis, C = x.shape
        n_mask = ids_restore.shape[1] + 1 - L_vis
        mask_tokens = torch.zeros(B, n_mask, C, device=x.device)  # expect: DTL001
        x_ = torch.cat([x[:, 1:, :], mask_tokens], dim=1)
        index = ids_restore.unsqueeze(-1).expand(-1, -1, C)  # lookalike: integer ids used only as a gather index
        x_ = torch.gather(x_, dim=1, index=index)
        x = torch.cat([x[:, :1, :], x_], dim=1)
        return self.decoder_norm(x)


def example():
    torch.manual_seed(0)
    model = MAEDecoderInput().to(torch.bfloat16)
    B, L = 2, 12
    ids_shuffle = torch.argsort(torch.rand(B, L), dim=1)
    ids_restore = torch.argsort(ids_shuffle, dim=1)
    latent = torch.randn(B, 1 + L // 4, 32).to(torch.bfloat16)
    return model, (latent, ids_restore)
