import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    """Latent-diffusion style cross-attention with an fp32 softmax."""

    def __init__(self, query_dim: int = 32, context_dim: int = 24, heads: int = 4, dim_head: int = 8):
        super().__init__()
        inner = heads * dim_head
        self.heads, self.scale = heads, dim_head ** -0.5
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_k = nn.Linear(context_dim, inner, bias=False)
        self.to_v = nn.Linear(context_dim, inner, bias=False)
        self.to_out = nn.Linear(inner, query_dim)

    def forward(self, x, context):
        B, N, _ = x.shape
        q, k, v = self.to_q(x), self.to_k(context), self.to_v(context)
        q, k, v = (z.view(B, -1, self.heads, z.shape[-1] // self.heads).transpose(1, 2) for z in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) * self.scale
        out = torch.softmax(scores.float(), dim=-1) @ v  # expect: DTL003
        return self.to_out(out.transpose(1, 2).reshape(B, N, -1))


def example():
    model = CrossAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 32, dtype=torch.bfloat16), torch.randn(2, 7, 24, dtype=torch.bfloat16))
