import numpy as np
import torch
from torch import nn


class YUVReconstructionHead(nn.Module):
    """Predicts RGB, converts it to YUV with a fixed colour matrix kept as a NumPy array."""

    def __init__(self, in_channels: int = 32):
        super().__init__()
        self.to_rgb = nn.Conv2d(in_channels, 3, 3, padding=1)
        self.rgb_to_yuv = np.array(
            [[0.299, 0.587, 0.114], [-0.14713, -0.28886, 0.436], [0.615, -0.51499, -0.10001]]
        )

    def forward(self, feats):
        rgb = self.to_rgb(feats).sigmoid()
        mat = torch.tensor(self.rgb_to_yuv, device=rgb.device)  # expect: DTL004
        yuv = torch.einsum("ij,bjhw->bihw", mat, rgb)
        return rgb, yuv


def example():
    torch.manual_seed(0)
    model = YUVReconstructionHead().to(torch.bfloat16)
    feats = torch.randn(2, 32, 8, 8, dtype=torch.bfloat16)
    return model, (feats,)
