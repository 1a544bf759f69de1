import torch
from torch import nn


class UtterancePooling(nn.Module):
    """Speaker/emotion head on wav2vec2 frames: masked mean over valid frames, then a classifier."""

    def __init__(self, dim: int = 32, num_classes: int = 6) -> None:
        super().__init__()
        self.projector = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_classes)

    def forward(self, hidden_states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        h = self.projector(hidden_states)
        frame_mask = attention_mask.unsqueeze(-1)
        pooled = (h * frame_mask.float()).sum(dim=1)  # expect: DTL003
        pooled = pooled / frame_mask.sum(dim=1).float()  # expect: DTL003
        return self.classifier(pooled)


def example():
    torch.manual_seed(0)
    model = UtterancePooling().to(torch.bfloat16)
    hs = torch.randn(3, 12, 32, dtype=torch.bfloat16)
    mask = torch.ones(3, 12, dtype=torch.long)
    mask[1, 8:] = 0
    mask[2, 5:] = 0
    return model, (hs, mask)
