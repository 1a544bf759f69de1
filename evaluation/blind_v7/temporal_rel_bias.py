import torch
from torch import nn


class TemporalRelativeAttention(nn.Module):
    """Video transformer temporal attention with a learned relative-position bias (TimeSformer/MViT style)."""

    def __init__(self, dim: int = 32, heads: int = 4, num_frames: int = 8) -> None:
        super().__init__()
        self.heads, self.num_frames = heads, num_frames
        self.bias_table = nn.Parameter(torch.zeros(2 * num_frames - 1, heads))
        coords = torch.arange(num_frames)
        self.relative_index = coords[:, None] - coords[None, :] + num_frames - 1  # lookalike: integer index table attribute
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * (C // self.heads) ** -0.5
        bias = self.bias_table[self.relative_index[:T, :T].to(x.device)].permute(2, 0, 1)
        attn = (attn + bias[None]).softmax(dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, T, C))


def example():
    torch.manual_seed(0)
    model = TemporalRelativeAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 32, dtype=torch.bfloat16),)
