import numpy as np
import torch
import torch.nn as nn


class ColorCorrection(nn.Module):
    """Applies a sensor colour-correction matrix, then a learned per-channel gain."""

    def __init__(self, ccm=None):
        super().__init__()
        default = [[1.6, -0.4, -0.2], [-0.3, 1.5, -0.2], [0.0, -0.5, 1.5]]
        self.ccm = np.array(ccm if ccm is not None else default)
        self.gain = nn.Parameter(torch.ones(3))

    def forward(self, pixels):
        matrix = torch.from_numpy(self.ccm).to(pixels.device)  # expect: DTL004
        return (pixels * self.gain) @ matrix.T


def example():
    model = ColorCorrection().to(torch.bfloat16)
    return model, (torch.rand(2, 16, 16, 3, dtype=torch.bfloat16),)
