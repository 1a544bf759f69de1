import torch
import torch.nn as nn


class TopKTokenSelector(nn.Module):
    """Keeps the k highest-scoring tokens (dynamic token pruning) and re-weights them."""

    def __init__(self, dim: int = 32, keep: int = 8):
        super().__init__()
        self.keep = keep
        self.score = nn.Linear(dim, 1)
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        B, N, C = tokens.shape
        scores = self.score(tokens).squeeze(-1)
        top = scores.topk(self.keep, dim=-1)
        batch_idx = torch.arange(B, device=tokens.device)[:, None]  # lookalike: integer index
        kept = tokens[batch_idx, top.indices]
        weights = top.values.softmax(dim=-1)[..., None]  # lookalike: .values keeps the bf16 dtype
        return self.proj(kept * weights)


def example():
    model = TopKTokenSelector().to(torch.bfloat16)
    return model, (torch.randn(2, 20, 32, dtype=torch.bfloat16),)
