"""Gumbel-softmax quantizer (DALL-E dVAE style) with a hard one-hot path at inference."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GumbelQuantize(nn.Module):
    def __init__(self, num_hiddens: int = 32, embedding_dim: int = 16, n_embed: int = 128, straight_through: bool = True):
        super().__init__()
        self.n_embed = n_embed
        self.straight_through = straight_through
        self.proj = nn.Conv2d(num_hiddens, n_embed, 1)
        self.embed = nn.Embedding(n_embed, embedding_dim)

    def forward(self, z: torch.Tensor, temperature: float = 1.0):
        logits = self.proj(z)
        if self.training:
            soft_one_hot = F.gumbel_softmax(logits, tau=temperature, dim=1, hard=self.straight_through)
            z_q = torch.einsum("b n h w, n d -> b d h w", soft_one_hot, self.embed.weight)
        else:
            ind = logits.argmax(dim=1)
            one_hot = F.one_hot(ind, self.n_embed)
            z_q = (one_hot.float() @ self.embed.weight).permute(0, 3, 1, 2)  # expect: DTL003
        qy = F.softmax(logits, dim=1)
        diff = torch.sum(qy * torch.log(qy * self.n_embed + 1e-10), dim=1).mean()
        return z_q, diff


def example():
    q = GumbelQuantize().to(torch.bfloat16).eval()
    return q, (torch.randn(2, 32, 8, 8, dtype=torch.bfloat16),)
