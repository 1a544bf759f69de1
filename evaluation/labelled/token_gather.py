import torch
import torch.nn as nn


class TokenGather(nn.Module):
    """Keeps the top-k scoring tokens; all index and mask tensors are integer/bool."""

    def __init__(self, dim: int, k: int = 16):
        super().__init__()
        self.k = k
        self.score = nn.Linear(dim, 1)

    def forward(self, x, lengths):
        B, L, _ = x.shape
        scores = self.score(x).squeeze(-1)
        valid = torch.arange(L, device=x.device)[None] < lengths[:, None]  # lookalike: integer arange as mask
        scores = scores.masked_fill(~valid, float("-inf"))
        topk = scores.topk(self.k, dim=-1).indices
        batch_idx = torch.arange(B, device=x.device)[:, None]  # lookalike: integer arange as index
        picked = x[batch_idx, topk]
        order = torch.tensor([0, 2, 1], device=x.device)  # lookalike: integer index tensor
        picked_scores = scores.gather(1, topk)[:, order] if self.k == 3 else scores.gather(1, topk)
        return picked, picked_scores
