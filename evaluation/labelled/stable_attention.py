import torch
import torch.nn as nn


class StableAttention(nn.Module):
    """Scores computed in fp32 with both operands cast; probabilities cast back."""

    def __init__(self, dim: int, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        scores = q.float() @ k.float().transpose(-2, -1) * self.scale  # lookalike: both operands cast
        probs = torch.softmax(scores, dim=-1, dtype=torch.float32).to(v.dtype)  # lookalike: cast back
        out = (probs @ v).transpose(1, 2).reshape(B, N, C)
        return self.to_out(out)
