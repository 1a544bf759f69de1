import torch
import torch.nn as nn


def attend(q, k, v, scale: float):
    scores = torch.matmul(q, k.transpose(-1, -2)) * scale
    return torch.matmul(torch.softmax(scores.float(), dim=-1).half(), v)  # expect: DTL003


class TemporalAttention(nn.Module):
    """Attention over frames of a video clip (code written for fp16 AMP)."""

    def __init__(self, dim: int = 32, heads: int = 4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, frames):
        B, T, C = frames.shape
        q, k, v = self.qkv(frames).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        o = attend(q, k, v, (C // self.heads) ** -0.5)
        return self.out(o.transpose(1, 2).reshape(B, T, C))


def example():
    model = TemporalAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 32, dtype=torch.bfloat16),)
