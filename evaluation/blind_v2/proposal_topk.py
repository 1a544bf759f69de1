"""Two-stage detector: select the top-k encoder proposals as decoder queries."""

import torch
import torch.nn as nn


class ProposalSelector(nn.Module):
    def __init__(self, dim: int = 32, num_classes: int = 5, num_queries: int = 8):
        super().__init__()
        self.num_queries = num_queries
        self.cls_head = nn.Linear(dim, num_classes)
        self.box_head = nn.Linear(dim, 4)

    def forward(self, memory, num_valid):
        """memory: (B, N, C) encoder tokens; num_valid: (B,) valid tokens per image."""
        B, N, _ = memory.shape
        logits = self.cls_head(memory).max(dim=-1).values  # (B, N)
        boxes = self.box_head(memory).sigmoid()
        k = min(self.num_queries, N)
        topk = logits.topk(k, dim=1)
        batch_idx = torch.arange(B, device=memory.device)[:, None]
        query_boxes = boxes[batch_idx, topk.indices]
        query_feats = memory[batch_idx, topk.indices]
        valid = topk.indices < num_valid[:, None]
        scores = topk.values.masked_fill(~valid, float("-inf"))
        if k < self.num_queries:
            pad = torch.zeros(B, self.num_queries - k, device=memory.device)  # expect: DTL001
            scores = torch.cat([scores, pad], dim=1)
        return query_feats, query_boxes, scores.sigmoid()


def example():
    model = ProposalSelector(num_queries=8).to(torch.bfloat16)
    memory = torch.randn(2, 6, 32, dtype=torch.bfloat16)
    num_valid = torch.tensor([6, 4])
    return model, (memory, num_valid)
