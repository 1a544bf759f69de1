import torch
import torch.nn as nn


class AttentionPool(nn.Module):
    """Masked attention pooling over a token sequence."""

    def __init__(self, dim: int):
        super().__init__()
        self.score = nn.Linear(dim, 1)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, mask):
        logits = self.score(x).squeeze(-1).masked_fill(~mask, float("-inf"))
        weights = logits.float().softmax(dim=-1)
        pooled = torch.bmm(weights.unsqueeze(1), x).squeeze(1)  # expect: DTL003
        return self.out(pooled)
