import torch
from torch import nn


class WindowAttentionBias(nn.Module):
    """Swin relative-position bias plus a fixed channel shuffle, both driven by integer tables."""

    def __init__(self, window: int = 3, heads: int = 2, dim: int = 8):
        super().__init__()
        self.heads = heads
        self.bias_table = nn.Parameter(torch.zeros((2 * window - 1) ** 2, heads))
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        index = rel[..., 0] * (2 * window - 1) + rel[..., 1]
        self.register_buffer("rel_index", index, persistent=False)  # lookalike: integer buffer
        self.shuffle_idx = torch.randperm(dim)  # lookalike: integer attribute used as an index
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        x = x[..., self.shuffle_idx]
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        bias = self.bias_table[self.rel_index.view(-1)].view(N, N, -1).permute(2, 0, 1)
        attn = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5 + bias[None]
        return (attn.softmax(-1) @ v).transpose(1, 2).reshape(B, N, C)


def example():
    torch.manual_seed(0)
    model = WindowAttentionBias().to(torch.bfloat16)
    x = torch.randn(2, 9, 8).to(torch.bfloat16)
    return model, (x,)
