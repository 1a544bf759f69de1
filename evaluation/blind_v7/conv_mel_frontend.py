import numpy as np
import torch
from torch import nn


def mel_filter_bank(sr: int, n_fft: int, n_mels: int) -> np.ndarray:
    """Triangular HTK mel filters, (n_mels, n_fft // 2 + 1), float64 as NumPy makes them."""
    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10 ** (m / 2595.0) - 1.0)

    fft_freqs = np.linspace(0, sr / 2, n_fft // 2 + 1)
    hz = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2))
    lower = (fft_freqs[None] - hz[:-2, None]) / (hz[1:-1, None] - hz[:-2, None])
    upper = (hz[2:, None] - fft_freqs[None]) / (hz[2:, None] - hz[1:-1, None])
    return np.maximum(0.0, np.minimum(lower, upper))


class LearnableSTFTMel(nn.Module):
    """LEAF/nnAudio-flavoured frontend: a strided conv acts as the STFT, a fixed mel matrix pools it."""

    def __init__(self, sr: int = 16000, n_fft: int = 64, hop: int = 16, n_mels: int = 16) -> None:
        super().__init__()
        self.stft_conv = nn.Conv1d(1, 2 * (n_fft // 2 + 1), n_fft, stride=hop)
        self.mel_fb = mel_filter_bank(sr, n_fft, n_mels)

    def forward(self, wav: torch.Tensor) -> torch.Tensor:
        spec = self.stft_conv(wav.unsqueeze(1))
        re, im = spec.chunk(2, dim=1)
        power = re ** 2 + im ** 2
        fb = torch.from_numpy(self.mel_fb).to(wav.device)  # expect: DTL004
        mel = (fb[None, :, :, None] * power[:, None]).sum(dim=2)
        return torch.log(mel.clamp(min=1e-5))


def example():
    torch.manual_seed(0)
    model = LearnableSTFTMel().to(torch.bfloat16)
    return model, (torch.randn(2, 400, dtype=torch.bfloat16),)
