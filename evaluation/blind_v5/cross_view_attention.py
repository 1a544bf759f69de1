import torch
from torch import nn


class CrossViewAttention(nn.Module):
    """BEV queries attend to flattened multi-camera tokens (CVT-style), Q/K/V from projections."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.scale = dim ** -0.5
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, queries, context):
        Q = self.q_proj(queries)
        K = self.k_proj(context)  # lookalike: attention keys named K, not a camera
        V = self.v_proj(context)
        attn = torch.softmax(Q @ K.transpose(-2, -1) * self.scale, dim=-1)
        return queries + self.out(attn @ V)


def example():
    torch.manual_seed(0)
    model = CrossViewAttention().to(torch.bfloat16)
    queries = torch.randn(2, 16, 32, dtype=torch.bfloat16)
    context = torch.randn(2, 6 * 20, 32, dtype=torch.bfloat16)
    return model, (queries, context)
