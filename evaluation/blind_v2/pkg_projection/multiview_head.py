"""Multi-view depth-bin head: projects 3D anchors into every view and scores depth bins."""

import torch
import torch.nn as nn

from .geometry import build_projection, gaussian_bin_weights, to_homogeneous


class MultiViewDepthHead(nn.Module):
    def __init__(self, feat_dim: int = 16, num_bins: int = 8, max_depth: float = 10.0):
        super().__init__()
        self.num_bins = num_bins
        self.max_depth = max_depth
        self.anchor_mlp = nn.Linear(feat_dim, 3)
        self.score = nn.Linear(num_bins, 1)

    def forward(self, feats, K, w2c):
        """feats: (B, N, C) anchor features; K: (B, 3, 3); w2c: (B, 4, 4)."""
        anchors = self.anchor_mlp(feats)
        P = build_projection(K, w2c)
        uvz = to_homogeneous(anchors) @ P.transpose(1, 2)  # expect: DTL002
        depth = uvz[..., 2].clamp(min=0.0, max=self.max_depth)
        centers = torch.linspace(0.0, self.max_depth, self.num_bins, device=feats.device)  # expect: DTL001
        weights = gaussian_bin_weights(depth, centers, self.max_depth / self.num_bins)
        return self.score(weights).squeeze(-1), uvz[..., :2] / uvz[..., 2:].clamp(min=1e-3)


def example():
    B, N, C = 2, 6, 16
    head = MultiViewDepthHead(C).to(torch.bfloat16)
    feats = torch.randn(B, N, C, dtype=torch.bfloat16)
    K = torch.tensor([[100.0, 0.0, 32.0], [0.0, 100.0, 24.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    w2c = torch.eye(4).expand(B, 4, 4).clone()
    w2c[:, 2, 3] = 4.0
    return head, (feats, K, w2c)
