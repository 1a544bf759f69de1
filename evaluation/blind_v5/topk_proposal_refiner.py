import torch
from torch import nn


class TopKProposalRefiner(nn.Module):
    """Keeps the top-k objectness scores per image and pads to a fixed number of proposals."""

    def __init__(self, in_dim: int = 32, num_keep: int = 16, max_props: int = 24):
        super().__init__()
        self.num_keep, self.max_props = num_keep, max_props
        self.objectness = nn.Linear(in_dim, 1)
        self.refine = nn.Linear(in_dim, 4)

    def forward(self, roi_feats):
        B, N, _ = roi_feats.shape
        logits = self.objectness(roi_feats).squeeze(-1)
        top = logits.topk(self.num_keep, dim=1)
        batch_idx = torch.arange(B, device=roi_feats.device)[:, None]  # lookalike: index arange
        kept = roi_feats[batch_idx, top.indices]
        boxes = self.refine(kept)
        pad = self.max_props - self.num_keep
        scores = torch.cat(
            [top.values.sigmoid(), torch.zeros(B, pad, device=roi_feats.device)], dim=1  # expect: DTL001
        )
        return boxes, scores


def example():
    torch.manual_seed(0)
    model = TopKProposalRefiner().to(torch.bfloat16)
    feats = torch.randn(2, 40, 32, dtype=torch.bfloat16)
    return model, (feats,)
