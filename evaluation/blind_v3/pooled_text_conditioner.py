import torch
from torch import nn


class PooledTextConditioner(nn.Module):
    """Adds a pooled text embedding to the diffusion timestep embedding."""

    def __init__(self, text_dim: int = 24, cond_dim: int = 32):
        super().__init__()
        self.norm = nn.LayerNorm(text_dim, elementwise_affine=False)
        self.cond_proj = nn.Linear(text_dim, cond_dim)
        self.act = nn.SiLU()

    def forward(self, text_tokens: torch.Tensor, temb: torch.Tensor) -> torch.Tensor:
        pooled = self.norm(text_tokens).mean(dim=1)  # lookalike: layer norm without weights
        cond = self.cond_proj(pooled.to(torch.float32))  # expect: DTL003
        return temb + self.act(cond)


def example():
    torch.manual_seed(0)
    model = PooledTextConditioner().to(torch.bfloat16)
    text_tokens = torch.randn(2, 7, 24).to(torch.bfloat16)
    temb = torch.randn(2, 32).to(torch.bfloat16)
    return model, (text_tokens, temb)
