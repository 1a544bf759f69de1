import torch
import torch.nn as nn


class PointSegmentPool(nn.Module):
    """Per-point MLP, mean-pooled into superpoint segments."""

    def __init__(self, in_dim: int = 16, dim: int = 32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(in_dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.head = nn.Linear(dim, dim)

    def forward(self, point_feats, segment_ids, num_segments: int):
        h = self.mlp(point_feats)
        pooled = torch.zeros(num_segments, h.shape[1], device=h.device)  # expect: DTL001
        pooled.index_add_(0, segment_ids, h)
        counts = torch.bincount(segment_ids, minlength=num_segments).clamp(min=1)
        return self.head(pooled / counts[:, None])


def example():
    model = PointSegmentPool().to(torch.bfloat16)
    feats = torch.randn(200, 16, dtype=torch.bfloat16)
    seg = torch.randint(0, 12, (200,))
    return model, (feats, seg, 12)
