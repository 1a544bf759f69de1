import torch
import torch.nn as nn


class ChannelShuffleMixer(nn.Module):
    """ShuffleNet-style channel shuffle with instance standardization."""

    def __init__(self, channels: int = 32, groups: int = 4):
        super().__init__()
        self.perm = torch.arange(channels).view(groups, -1).t().reshape(-1)  # lookalike: integer attribute
        self._last_stats = torch.empty(0)  # lookalike: empty placeholder, replaced in forward
        self.eps = torch.tensor(1e-5)  # lookalike: 0-dim scalar
        self.conv = nn.Conv2d(channels, channels, 1)

    def forward(self, x):
        x = x[:, self.perm]
        x = (x - x.mean(dim=(2, 3), keepdim=True)) / (x.std(dim=(2, 3), keepdim=True) + self.eps)
        self._last_stats = x.detach().mean(dim=(0, 2, 3))
        return self.conv(x)


def example():
    model = ChannelShuffleMixer().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 6, 6, dtype=torch.bfloat16),)
