import torch
from torch import nn


class FlipFusionHeatmapHead(nn.Module):
    """Averages keypoint heatmaps with those of the mirrored image, left/right channels swapped."""

    def __init__(self, in_channels: int = 32, num_kpts: int = 9, flip_pairs=((1, 2), (3, 4), (5, 6), (7, 8))):
        super().__init__()
        perm = list(range(num_kpts))
        for a, b in flip_pairs:
            perm[a], perm[b] = b, a
        self.flip_index = torch.tensor(perm)  # lookalike: integer index table
        self.head = nn.Conv2d(in_channels, num_kpts, 1)

    def forward(self, feats):
        heat = self.head(feats)
        heat_flipped = self.head(feats.flip(-1)).flip(-1)[:, self.flip_index]
        return (heat + heat_flipped) * 0.5


def example():
    torch.manual_seed(0)
    model = FlipFusionHeatmapHead().to(torch.bfloat16)
    feats = torch.randn(2, 32, 16, 12, dtype=torch.bfloat16)
    return model, (feats,)
