import numpy as np
import torch
from torch import nn


class ColorCorrectionHead(nn.Module):
    """ISP-style head: white balance and a colour-correction matrix stored as NumPy arrays."""

    def __init__(self, in_channels: int = 16):
        super().__init__()
        self.to_rgb = nn.Conv2d(in_channels, 3, 3, padding=1)
        self.ccm = np.array([[1.6, -0.4, -0.2], [-0.3, 1.5, -0.2], [0.0, -0.5, 1.5]])
        self.wb_gains = np.array([2.0, 1.0, 1.6])
        self.gamma = 1 / 2.2

    def forward(self, feats):
        rgb = self.to_rgb(feats).sigmoid()
        ccm = torch.tensor(self.ccm, dtype=rgb.dtype, device=rgb.device)  # lookalike: dtype given
        wb = torch.from_numpy(self.wb_gains).to(rgb.dtype).view(1, 3, 1, 1)  # lookalike: cast right after
        out = torch.einsum("ij,bjhw->bihw", ccm, rgb * wb)
        return out.clamp(min=1e-4) ** self.gamma


def example():
    torch.manual_seed(0)
    model = ColorCorrectionHead().to(torch.bfloat16)
    feats = torch.randn(2, 16, 8, 8, dtype=torch.bfloat16)
    return model, (feats,)
