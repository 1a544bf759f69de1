import torch
from torch import nn


class UniformTemporalSubsample(nn.Module):
    """pytorchvideo-style temporal subsampling inside a video model: float linspace rounded to indices."""

    def __init__(self, num_samples: int = 4, channels: int = 3, dim: int = 16) -> None:
        super().__init__()
        self.num_samples = num_samples
        self.stem = nn.Conv3d(channels, dim, (1, 3, 3), padding=(0, 1, 1))

    def forward(self, video: torch.Tensor) -> torch.Tensor:
        T = video.shape[2]
        idx = torch.linspace(0, T - 1, self.num_samples, device=video.device).round().long()  # lookalike: rounded to indices
        clip = torch.index_select(video, 2, idx.clamp(0, T - 1))
        return self.stem(clip).mean(dim=(2, 3, 4))


def example():
    torch.manual_seed(0)
    model = UniformTemporalSubsample().to(torch.bfloat16)
    return model, (torch.randn(2, 3, 9, 8, 8, dtype=torch.bfloat16),)
