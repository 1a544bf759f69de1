import torch
import torch.nn.functional as F
from torch import nn


class CausalBlock(nn.Module):
    """Decoder block with a causal boolean mask and stochastic depth."""

    def __init__(self, dim: int = 16, drop_path: float = 0.2):
        super().__init__()
        self.drop_path = drop_path
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, L, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        causal = torch.ones(L, L, dtype=torch.bool, device=x.device).triu(1)  # lookalike: bool mask
        scores = (q @ k.transpose(-2, -1)) / C ** 0.5
        scores = scores.masked_fill(causal, float("-inf"))
        y = self.out(F.softmax(scores, dim=-1) @ v)
        if self.training and self.drop_path > 0:
            keep_prob = 1.0 - self.drop_path
            mask = torch.rand(B, 1, 1, device=x.device) < keep_prob  # lookalike: bool mask from a comparison with a float
            y = y * mask / keep_prob
        return x + y


def example():
    torch.manual_seed(0)
    model = CausalBlock().to(torch.bfloat16)
    x = torch.randn(3, 7, 16).to(torch.bfloat16)
    return model, (x,)
