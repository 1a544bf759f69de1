import torch
from torch import nn


class WindowAttention(nn.Module):
    """Swin window attention with a relative position bias table indexed by an integer buffer."""

    def __init__(self, dim: int = 32, window: int = 4, num_heads: int = 4):
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.table = nn.Parameter(torch.zeros((2 * window - 1) ** 2, num_heads))
        nn.init.trunc_normal_(self.table, std=0.02)
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        self.register_buffer("rel_index", rel[..., 0] * (2 * window - 1) + rel[..., 1], persistent=False)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.num_heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q * self.scale) @ k.transpose(-2, -1)
        bias = self.table[self.rel_index.view(-1)].view(N, N, -1).permute(2, 0, 1)  # lookalike: integer index buffer
        attn = (attn + bias.unsqueeze(0)).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, N, C))


def example():
    torch.manual_seed(0)
    model = WindowAttention().to(torch.bfloat16)
    x = torch.randn(3, 16, 32, dtype=torch.bfloat16)
    return model, (x,)
