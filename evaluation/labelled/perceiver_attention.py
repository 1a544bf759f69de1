import torch
import torch.nn as nn


class PerceiverLatentAttention(nn.Module):
    def __init__(self, dim: int, latent_dim: int):
        super().__init__()
        self.scale = latent_dim**-0.5
        self.to_q = nn.Linear(latent_dim, latent_dim, bias=False)
        self.to_kv = nn.Linear(dim, 2 * latent_dim, bias=False)
        self.to_out = nn.Linear(latent_dim, latent_dim)

    def forward(self, latents, x):
        q = self.to_q(latents) * self.scale
        k, v = self.to_kv(x).chunk(2, dim=-1)
        sim = torch.einsum("bid,bjd->bij", q, k.to(torch.float32))  # expect: DTL003
        attn = sim.softmax(dim=-1).to(v.dtype)  # lookalike: cast back to the value dtype
        out = torch.einsum("bij,bjd->bid", attn, v)
        return latents + self.to_out(out)
