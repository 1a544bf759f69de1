import torch
import torch.nn as nn


class PointPillarsScatter(nn.Module):
    """Pillar feature net + scatter to a BEV pseudo-image + first backbone conv."""

    def __init__(self, in_channels: int = 16, out_channels: int = 32, nx: int = 16, ny: int = 16):
        super().__init__()
        self.nx, self.ny = nx, ny
        self.pfn = nn.Linear(9, in_channels)
        self.backbone = nn.Conv2d(in_channels, out_channels, 3, padding=1)

    def forward(self, pillar_points, coords):
        pillar_feats = self.pfn(pillar_points).max(dim=1).values
        C = pillar_feats.shape[1]
        canvas = torch.zeros(C, self.nx * self.ny, device=pillar_feats.device)  # expect: DTL001
        indices = coords[:, 1] * self.nx + coords[:, 2]
        canvas[:, indices] = pillar_feats.t()
        canvas = canvas.view(1, C, self.ny, self.nx)
        return self.backbone(canvas)


def example():
    model = PointPillarsScatter().to(torch.bfloat16)
    P = 40
    flat = torch.randperm(256)[:P]
    coords = torch.stack([torch.zeros(P, dtype=torch.long), flat // 16, flat % 16], dim=1)
    return model, (torch.randn(P, 8, 9, dtype=torch.bfloat16), coords)
