import torch
from torch import nn


class SegmentMeanPool(nn.Module):
    """Per-sample mean pooling of a ragged batch of points (PointNet++ / PTv3 batching)."""

    def __init__(self, in_dim: int = 6, dim: int = 32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, point_feats, batch_idx, num_batches: int):
        feats = self.mlp(point_feats)
        counts = torch.bincount(batch_idx, minlength=num_batches)  # lookalike: integer counts
        offsets = torch.cumsum(counts, dim=0) - counts  # lookalike: cumsum of counts
        local_idx = torch.arange(feats.shape[0], device=feats.device) - offsets[batch_idx]  # lookalike: index arange
        pooled = feats.new_zeros(num_batches, feats.shape[1]).index_add_(0, batch_idx, feats)
        pooled = pooled / counts.clamp(min=1)[:, None]
        first = local_idx == 0
        return pooled, feats[first]


def example():
    torch.manual_seed(0)
    model = SegmentMeanPool().to(torch.bfloat16)
    batch_idx = torch.sort(torch.randint(0, 3, (50,))).values
    feats = torch.randn(50, 6, dtype=torch.bfloat16)
    return model, (feats, batch_idx, 3)
