"""Query selection by top-k objectness for a sparse 3D detector."""

import torch
import torch.nn as nn


class TopKQuerySelector(nn.Module):
    def __init__(self, dim: int = 16, k: int = 4):
        super().__init__()
        self.k = k
        self.objectness = nn.Linear(dim, 1)
        self.refine = nn.Linear(dim + 3, dim)

    def forward(self, feats, centers):
        """feats: (B, N, C); centers: (B, N, 3) candidate centres (model dtype)."""
        B, N, C = feats.shape
        score = self.objectness(feats).squeeze(-1)
        topk = score.topk(self.k, dim=1)
        idx = topk.indices
        gathered = torch.gather(feats, 1, idx[..., None].expand(-1, -1, C))
        batch_idx = torch.arange(B, device=feats.device)[:, None].expand_as(idx)
        sel_centers = centers[batch_idx, idx]
        rank = torch.arange(self.k, device=feats.device).expand(B, -1)
        keep = rank < (score > 0).sum(1, keepdim=True).clamp(min=1)
        out = self.refine(torch.cat([gathered, sel_centers], dim=-1))
        best = score.argmax(dim=1)
        return out * keep[..., None], topk.values.sigmoid(), best


def example():
    feats = torch.randn(2, 10, 16, dtype=torch.bfloat16)
    centers = torch.randn(2, 10, 3, dtype=torch.bfloat16)
    return TopKQuerySelector().to(torch.bfloat16), (feats, centers)
