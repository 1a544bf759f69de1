import math

import torch
from torch import nn


def sinusoid_table(n_pos: int, dim: int, *, device: torch.device, dtype: torch.dtype) -> torch.Tensor:
    pos = torch.arange(n_pos, device=device, dtype=torch.float32)[:, None]
    div = torch.exp(torch.arange(0, dim, 2, device=device, dtype=torch.float32) * (-math.log(10000.0) / dim))
    table = torch.zeros(n_pos, dim, device=device, dtype=dtype)  # lookalike: helper receives dtype=
    table[:, 0::2] = torch.sin(pos * div)
    table[:, 1::2] = torch.cos(pos * div)
    return table


class AudioFrameEncoder(nn.Module):
    """Log-mel frame encoder with fixed sinusoidal positions (Whisper encoder flavoured)."""

    def __init__(self, n_mels: int = 16, dim: int = 32) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, dim, 3, padding=1)
        self.conv2 = nn.Conv1d(dim, dim, 3, stride=2, padding=1)
        self.ln = nn.LayerNorm(dim)

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        x = nn.functional.gelu(self.conv2(nn.functional.gelu(self.conv1(mel)))).transpose(1, 2)
        pos = sinusoid_table(x.shape[1], x.shape[2], device=x.device, dtype=x.dtype)
        return self.ln(x + pos)


def example():
    torch.manual_seed(0)
    model = AudioFrameEncoder().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 20, dtype=torch.bfloat16),)
