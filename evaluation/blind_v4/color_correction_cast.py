import numpy as np
import torch
import torch.nn as nn


class SensorColorTransform(nn.Module):
    """Colour-correction matrix kept as a NumPy array, converted to the pixels' dtype on use."""

    def __init__(self):
        super().__init__()
        self.ccm = np.array([[1.5, -0.3, -0.2], [-0.2, 1.4, -0.2], [0.0, -0.4, 1.4]])
        self.tone = nn.Conv2d(3, 3, 1)

    def forward(self, pixels):
        matrix = torch.from_numpy(self.ccm).to(pixels)  # lookalike: cast to the pixels' dtype and device
        corrected = torch.einsum("bchw,dc->bdhw", pixels, matrix)
        return self.tone(corrected)


def example():
    model = SensorColorTransform().to(torch.bfloat16)
    return model, (torch.rand(2, 3, 8, 8, dtype=torch.bfloat16),)
