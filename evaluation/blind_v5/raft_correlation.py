import torch
import torch.nn.functional as F
from torch import nn


class AllPairsCorrelation(nn.Module):
    """RAFT: feature encoder, then the all-pairs correlation volume and its pooled pyramid."""

    def __init__(self, in_channels: int = 3, dim: int = 32, num_levels: int = 3):
        super().__init__()
        self.num_levels = num_levels
        self.fnet = nn.Sequential(nn.Conv2d(in_channels, dim, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, image1, image2):
        fmap1, fmap2 = self.fnet(image1), self.fnet(image2)
        B, C, H, W = fmap1.shape
        corr = torch.matmul(
            fmap1.view(B, C, H * W).transpose(1, 2).to(torch.float32),  # expect: DTL003
            fmap2.view(B, C, H * W),
        )
        corr = corr.view(B * H * W, 1, H, W) / C ** 0.5
        pyramid = [corr]
        for _ in range(self.num_levels - 1):
            pyramid.append(F.avg_pool2d(pyramid[-1], 2, stride=2))
        return pyramid


def example():
    torch.manual_seed(0)
    model = AllPairsCorrelation().to(torch.bfloat16)
    image1 = torch.rand(2, 3, 32, 32).to(torch.bfloat16)
    image2 = torch.rand(2, 3, 32, 32).to(torch.bfloat16)
    return model, (image1, image2)
