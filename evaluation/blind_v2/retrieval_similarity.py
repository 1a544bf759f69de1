"""Image-text retrieval head scoring a query batch against a cached gallery."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class RetrievalHead(nn.Module):
    def __init__(self, dim: int = 16, embed: int = 8, temperature: float = 0.05):
        super().__init__()
        self.query_proj = nn.Linear(dim, embed)
        self.gallery_proj = nn.Linear(dim, embed)
        self.temperature = temperature

    def forward(self, queries, gallery_feats, positives):
        """queries: (B, D); gallery_feats: (G, D); positives: (B,) index of the match."""
        q = F.normalize(self.query_proj(queries), dim=-1)
        g = F.normalize(self.gallery_proj(gallery_feats), dim=-1)
        sim = torch.mm(q.to(torch.float32), g.t()) / self.temperature  # expect: DTL003
        loss = F.cross_entropy(sim, positives)
        hits_at_1 = (sim.argmax(dim=1) == positives).sum()
        return loss, hits_at_1


def example():
    head = RetrievalHead().to(torch.bfloat16)
    return head, (torch.randn(4, 16, dtype=torch.bfloat16), torch.randn(10, 16, dtype=torch.bfloat16), torch.tensor([1, 3, 5, 7]))
