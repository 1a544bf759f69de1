import torch
from torch import nn


class StableSoftmaxAttention(nn.Module):
    """Attention with float32 logits (both operands upcast) and the weights cast back before V."""

    def __init__(self, dim: int = 32, num_heads: int = 4):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        scores = q.float() @ k.float().transpose(-2, -1) * self.scale  # lookalike: both operands cast
        attn = scores.softmax(dim=-1).to(v.dtype)  # lookalike: cast back before the product
        out = attn @ v
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


def example():
    torch.manual_seed(0)
    model = StableSoftmaxAttention().to(torch.bfloat16)
    x = torch.randn(2, 14, 32, dtype=torch.bfloat16)
    return model, (x,)
