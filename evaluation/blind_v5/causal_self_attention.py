import torch
from torch import nn


class CausalSelfAttention(nn.Module):
    """GPT-style attention with a float32 softmax, cast back to half for the value product."""

    def __init__(self, dim: int = 32, num_heads: int = 4):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-2, -1)) * self.scale
        causal = torch.ones(N, N, dtype=torch.bool, device=x.device).triu(1)  # lookalike: bool mask
        scores = scores.masked_fill(causal, float("-inf"))
        out = torch.softmax(scores.float(), dim=-1).half() @ v  # expect: DTL003
        return self.out(out.transpose(1, 2).reshape(B, N, C))


def example():
    torch.manual_seed(0)
    model = CausalSelfAttention().to(torch.bfloat16)
    x = torch.randn(2, 12, 32, dtype=torch.bfloat16)
    return model, (x,)
