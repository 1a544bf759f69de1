import torch
from torch import nn


class PaddedSelfAttention(nn.Module):
    """Speech encoder attention over variable-length utterances: key padding as a bool mask."""

    def __init__(self, dim: int = 32, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        B, T, C = x.shape
        valid = torch.arange(T, device=x.device)[None, :] < lengths[:, None]  # lookalike: integer arange compared to lengths -> bool
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(-1, -2)) / (C // self.heads) ** 0.5
        scores = scores.masked_fill(~valid[:, None, None, :], torch.finfo(scores.dtype).min)
        out = (scores.softmax(-1) @ v).transpose(1, 2).reshape(B, T, C)
        return self.out(out).masked_fill(~valid[..., None], 0.0)


def example():
    torch.manual_seed(0)
    model = PaddedSelfAttention().to(torch.bfloat16)
    return model, (torch.randn(3, 9, 32, dtype=torch.bfloat16), torch.tensor([9, 5, 2]))
