import torch
from torch import nn
import torch.nn.functional as F


class VideoClassifierHead(nn.Module):
    """Video transformer head: temporal mean of CLS tokens, nested-Sequential MLP classifier."""

    def __init__(self, dim: int = 32, hidden: int = 64, num_classes: int = 10) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Sequential(
            nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(0.0)),
            nn.Linear(hidden, num_classes),
        )

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        # tokens: (B, T, N, C); the CLS token of each frame is at index 0
        cls = self.norm(tokens[:, :, 0]).mean(dim=1)
        logits = self.head(F.normalize(cls, dim=-1).float())  # expect: DTL003
        return logits


def example():
    torch.manual_seed(0)
    model = VideoClassifierHead().to(torch.bfloat16)
    return model, (torch.randn(2, 4, 5, 32, dtype=torch.bfloat16),)
