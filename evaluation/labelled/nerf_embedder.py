import torch
import torch.nn as nn


class NeRFEmbedder(nn.Module):
    """Frequency encoding gamma(p) from NeRF."""

    def __init__(self, num_freqs: int = 10, include_input: bool = True):
        super().__init__()
        self.include_input = include_input
        self.freq_bands = 2.0 ** torch.linspace(0.0, num_freqs - 1, num_freqs)  # expect: DTL005

    def forward(self, x):
        scaled = x[..., None, :] * self.freq_bands[:, None]
        enc = torch.cat([torch.sin(scaled), torch.cos(scaled)], dim=-1).flatten(-2)
        return torch.cat([x, enc], dim=-1) if self.include_input else enc

    @property
    def out_dim(self) -> int:
        return 3 * (2 * self.freq_bands.numel() + int(self.include_input))
