import torch
from torch import nn


class KeypointHeatmapSplat(nn.Module):
    """Splats regressed keypoints bilinearly into heatmaps, then refines them with a conv."""

    def __init__(self, dim: int = 32, num_kpts: int = 8, size=(16, 16)):
        super().__init__()
        self.num_kpts, self.size = num_kpts, size
        self.coord_head = nn.Linear(dim, num_kpts * 2)
        self.refine = nn.Conv2d(num_kpts, num_kpts, 3, padding=1)

    def forward(self, feats):
        B = feats.shape[0]
        K = self.num_kpts
        H, W = self.size
        xy = self.coord_head(feats).sigmoid().view(B * K, 2) * (W - 1)
        x0 = xy[:, 0].floor().long().clamp(0, W - 2)  # lookalike: rounded index math
        y0 = xy[:, 1].floor().long().clamp(0, H - 2)
        wx, wy = xy[:, 0] - x0, xy[:, 1] - y0
        idx = torch.stack([y0 * W + x0, y0 * W + x0 + 1, (y0 + 1) * W + x0, (y0 + 1) * W + x0 + 1], dim=1)
        w = torch.stack([(1 - wx) * (1 - wy), wx * (1 - wy), (1 - wx) * wy, wx * wy], dim=1)
        heat = torch.zeros(B * K, H * W, device=feats.device)  # expect: DTL001
        heat.scatter_add_(1, idx, w)
        return self.refine(heat.view(B, K, H, W))


def example():
    torch.manual_seed(0)
    model = KeypointHeatmapSplat().to(torch.bfloat16)
    feats = torch.randn(2, 32, dtype=torch.bfloat16)
    return model, (feats,)
