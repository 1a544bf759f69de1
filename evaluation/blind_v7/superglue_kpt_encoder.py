import torch
from torch import nn


class KeypointEncoder(nn.Module):
    """SuperGlue keypoint encoder: (x, y, score) -> descriptor-sized positional feature via a 1x1-conv MLP."""

    def __init__(self, feature_dim: int = 32, layers=(16, 32)) -> None:
        super().__init__()
        channels = [3, *layers, feature_dim]
        blocks = []
        for i in range(1, len(channels)):
            blocks.append(nn.Conv1d(channels[i - 1], channels[i], kernel_size=1, bias=True))
            if i < len(channels) - 1:
                blocks.append(nn.BatchNorm1d(channels[i]))
                blocks.append(nn.ReLU())
        self.encoder = nn.Sequential(*blocks)
        nn.init.constant_(self.encoder[-1].bias, 0.0)

    def forward(self, kpts: torch.Tensor, scores: torch.Tensor, image_size: torch.Tensor) -> torch.Tensor:
        size = image_size.to(kpts)
        center = size / 2
        scaling = size.max(-1, keepdim=True).values * 0.7
        kpts_n = (kpts - center[:, None, :]) / scaling[:, None, :]
        inputs = torch.cat([kpts_n.transpose(1, 2), scores.unsqueeze(1)], dim=1)
        return self.encoder(inputs.float())  # expect: DTL003


def example():
    torch.manual_seed(0)
    model = KeypointEncoder().eval().to(torch.bfloat16)
    kpts = (torch.rand(2, 20, 2) * 64).to(torch.bfloat16)
    scores = torch.rand(2, 20, dtype=torch.bfloat16)
    size = torch.tensor([[64, 48], [64, 48]])
    return model, (kpts, scores, size)
