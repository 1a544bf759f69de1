import torch
from torch import nn


class Attention(nn.Module):
    """ViT block attention with a float32 softmax for stability."""

    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.scale  # lookalike: product of two activations
        attn = attn.float().softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)  # expect: DTL003
        return self.proj(out)


def example():
    torch.manual_seed(0)
    model = Attention().to(torch.bfloat16)
    x = torch.randn(2, 9, 32).to(torch.bfloat16)
    return model, (x,)
