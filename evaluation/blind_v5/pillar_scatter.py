import torch
from torch import nn


class PillarScatter(nn.Module):
    """PointPillars: scatters pillar features onto a BEV canvas, then a 2D backbone stage."""

    def __init__(self, in_channels: int = 16, grid_size=(32, 32)):
        super().__init__()
        self.ny, self.nx = grid_size
        self.in_channels = in_channels
        self.backbone = nn.Conv2d(in_channels, 32, 3, padding=1)

    def forward(self, pillar_features, coords, batch_size: int):
        batch_canvas = []
        for b in range(batch_size):
            canvas = torch.zeros(  # expect: DTL001
                self.in_channels, self.nx * self.ny, device=pillar_features.device
            )
            mask = coords[:, 0] == b
            this = coords[mask]
            indices = (this[:, 2] * self.nx + this[:, 3]).long()  # lookalike: integer index math
            canvas[:, indices] = pillar_features[mask].t()
            batch_canvas.append(canvas)
        bev = torch.stack(batch_canvas, 0).view(batch_size, self.in_channels, self.ny, self.nx)
        return self.backbone(bev)


def example():
    torch.manual_seed(0)
    model = PillarScatter().to(torch.bfloat16)
    P = 200
    coords = torch.stack(
        [torch.randint(0, 2, (P,)), torch.zeros(P, dtype=torch.long), torch.randint(0, 32, (P,)), torch.randint(0, 32, (P,))],
        dim=1,
    )
    feats = torch.randn(P, 16, dtype=torch.bfloat16)
    return model, (feats, coords, 2)
