"""Audio front end: project linear-frequency magnitudes onto a precomputed mel filter bank."""
import numpy as np
import torch
import torch.nn as nn


def mel_filter_bank(sr: int = 16000, n_fft: int = 400, n_mels: int = 40) -> np.ndarray:
    """Triangular HTK mel filters, as librosa.filters.mel(htk=True) builds them (float64)."""
    def hz_to_mel(f):
        return 2595.0 * np.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)

    freqs = np.linspace(0, sr / 2, n_fft // 2 + 1)
    mel_pts = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sr / 2), n_mels + 2))
    lower, center, upper = mel_pts[:-2, None], mel_pts[1:-1, None], mel_pts[2:, None]
    up = (freqs[None] - lower) / (center - lower)
    down = (upper - freqs[None]) / (upper - center)
    return np.maximum(0.0, np.minimum(up, down))


class LogMelEncoder(nn.Module):
    def __init__(self, n_fft: int = 400, n_mels: int = 40, d_model: int = 64):
        super().__init__()
        self.mel_basis = mel_filter_bank(n_fft=n_fft, n_mels=n_mels)
        self.conv = nn.Conv1d(n_mels, d_model, 3, padding=1)

    def forward(self, magnitudes: torch.Tensor) -> torch.Tensor:
        """magnitudes: (B, n_fft // 2 + 1, frames) power spectrogram computed upstream."""
        filters = torch.from_numpy(self.mel_basis).to(magnitudes.device)  # expect: DTL004
        mel_spec = filters @ magnitudes
        log_spec = torch.clamp(mel_spec, min=1e-10).log10()
        log_spec = torch.maximum(log_spec, log_spec.amax(dim=(-2, -1), keepdim=True) - 8.0)
        return torch.relu(self.conv((log_spec + 4.0) / 4.0))


def example():
    enc = LogMelEncoder().to(torch.bfloat16)
    mags = torch.rand(2, 201, 30, dtype=torch.bfloat16)
    return enc, (mags,)
