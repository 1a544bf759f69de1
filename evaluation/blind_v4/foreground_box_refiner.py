import torch
import torch.nn as nn


class ForegroundBoxRefiner(nn.Module):
    """Second-stage head: classify RoIs, refine only the foreground ones."""

    def __init__(self, dim: int = 32, num_classes: int = 5):
        super().__init__()
        self.cls = nn.Linear(dim, num_classes)
        self.reg = nn.Linear(dim, 4)

    def forward(self, roi_feats, boxes):
        logits = self.cls(roi_feats)
        labels = logits.argmax(dim=-1)  # lookalike: integer labels
        fg = torch.nonzero(labels > 0, as_tuple=False).squeeze(1)  # lookalike: integer indices
        deltas = self.reg(roi_feats[fg])
        refined = boxes[fg] + deltas
        return refined, logits.softmax(dim=-1)


def example():
    model = ForegroundBoxRefiner().to(torch.bfloat16)
    boxes = (torch.rand(20, 4) * 50).to(torch.bfloat16)
    return model, (torch.randn(20, 32, dtype=torch.bfloat16), boxes)
