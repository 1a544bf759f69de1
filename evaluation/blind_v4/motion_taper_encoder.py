import numpy as np
import torch
import torch.nn as nn


class MotionTaperEncoder(nn.Module):
    """Temporal conv encoder for pose sequences with a Hann taper over the clip."""

    def __init__(self, in_dim: int = 24, dim: int = 32):
        super().__init__()
        self.conv = nn.Conv1d(in_dim, dim, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool1d(1)

    def forward(self, motion):
        B, T, D = motion.shape
        x = self.conv(motion.transpose(1, 2))
        window = torch.as_tensor(np.hanning(T), device=x.device)  # expect: DTL004
        x = x * window
        return self.pool(x).squeeze(-1)


def example():
    model = MotionTaperEncoder().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 24, dtype=torch.bfloat16),)
