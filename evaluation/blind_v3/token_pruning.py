import torch
from torch import nn


class TopKTokenPruning(nn.Module):
    """Keeps the k most salient patch tokens (plus CLS) of a ViT sequence."""

    def __init__(self, dim: int = 16, keep: int = 4):
        super().__init__()
        self.keep = keep
        self.score = nn.Linear(dim, 1)

    def forward(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        scores = self.score(x[:, 1:]).squeeze(-1)
        valid = torch.arange(N - 1, device=x.device)[None, :] < lengths[:, None]  # lookalike: integer arange -> bool mask
        scores = scores.masked_fill(~valid, float("-inf"))
        keep_idx = scores.topk(self.keep, dim=1).indices + 1
        batch_idx = torch.arange(B, device=x.device)[:, None]  # lookalike: integer arange used as index
        kept = x[batch_idx, keep_idx]
        cls_and_first = torch.tensor([0, 1], device=x.device)  # lookalike: integer tensor used as index
        return torch.cat([x[:, cls_and_first], kept], dim=1)


def example():
    torch.manual_seed(0)
    model = TopKTokenPruning().to(torch.bfloat16)
    x = torch.randn(2, 9, 16).to(torch.bfloat16)
    lengths = torch.tensor([8, 6])
    return model, (x, lengths)
