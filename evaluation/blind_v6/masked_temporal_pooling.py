"""Masked mean pooling over time for variable-length clips (pytorchvideo's MaskedTemporalPooling)."""
import torch
import torch.nn as nn


class MaskedTemporalPooling(nn.Module):
    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """x: (B, T, C) features, mask: (B, T) bool, True where a frame is valid."""
        valid_lengths = mask.sum(dim=1)
        x = (x * mask.unsqueeze(-1).float()).sum(dim=1)  # expect: DTL003
        x = x / valid_lengths.unsqueeze(-1).float().clamp(min=1)  # expect: DTL003
        return x


class ClipClassifier(nn.Module):
    def __init__(self, in_dim: int = 48, num_classes: int = 7):
        super().__init__()
        self.frame_proj = nn.Linear(in_dim, in_dim)
        self.pool = MaskedTemporalPooling()
        self.head = nn.Linear(in_dim, num_classes)

    def forward(self, frames: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.head(self.pool(torch.relu(self.frame_proj(frames)), mask))


def example():
    m = ClipClassifier().to(torch.bfloat16)
    frames = torch.randn(3, 6, 48, dtype=torch.bfloat16)
    mask = torch.ones(3, 6, dtype=torch.bool)
    mask[1, 4:] = False
    return m, (frames, mask)
