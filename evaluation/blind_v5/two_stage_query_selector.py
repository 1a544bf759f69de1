import torch
from torch import nn


class TwoStageQuerySelector(nn.Module):
    """Deformable-DETR two-stage: picks the top encoder tokens as decoder queries."""

    def __init__(self, dim: int = 32, num_classes: int = 5):
        super().__init__()
        self.cls = nn.Linear(dim, num_classes)
        self.box = nn.Linear(dim, 4)
        self.label_embed = nn.Embedding(num_classes, dim)

    def forward(self, memory, num_queries: int = 10):
        logits = self.cls(memory)
        best = logits.max(dim=-1)
        topk_idx = torch.topk(best.values, num_queries, dim=1).indices  # lookalike: .indices are int64
        labels = logits.argmax(dim=-1)  # lookalike: argmax is int64
        boxes = self.box(memory).sigmoid()
        sel_boxes = torch.gather(boxes, 1, topk_idx[..., None].expand(-1, -1, 4))
        sel_labels = torch.gather(labels, 1, topk_idx)
        foreground = torch.nonzero(sel_labels > 0)  # lookalike: nonzero is int64
        tokens = torch.gather(memory, 1, topk_idx[..., None].expand(-1, -1, memory.shape[-1]))
        query = self.label_embed(sel_labels) + tokens
        return query, sel_boxes, foreground


def example():
    torch.manual_seed(0)
    model = TwoStageQuerySelector().to(torch.bfloat16)
    memory = torch.randn(2, 40, 32, dtype=torch.bfloat16)
    return model, (memory,)
