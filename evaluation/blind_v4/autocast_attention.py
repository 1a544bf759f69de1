import torch
import torch.nn as nn


class AutocastAttention(nn.Module):
    """Attention whose logits are upcast, inside an autocast region (autocast casts both operands)."""

    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        with torch.autocast(device_type=x.device.type, dtype=torch.bfloat16):
            attn = q.float() @ k.transpose(-2, -1)  # lookalike: one-sided cast, but under autocast
            attn = (attn * (C // self.heads) ** -0.5).softmax(dim=-1)
            out = attn @ v
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


def example():
    model = AutocastAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 12, 32, dtype=torch.bfloat16),)
