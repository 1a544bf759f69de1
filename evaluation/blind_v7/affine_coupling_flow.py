import torch
from torch import nn


class AffineCoupling(nn.Module):
    """WaveGlow/Glow affine coupling layer; constants made with *_like / new_* factories."""

    def __init__(self, channels: int = 8, hidden: int = 16) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(channels // 2, hidden, 3, padding=1), nn.ReLU(), nn.Conv1d(hidden, channels, 3, padding=1))
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def forward(self, x: torch.Tensor):
        xa, xb = x.chunk(2, dim=1)
        log_s, t = self.net(xa).chunk(2, dim=1)
        s = torch.sigmoid(log_s + 2.0)
        yb = (xb + t) * s
        logdet = torch.log(s).flatten(1).sum(-1)
        zeros = torch.zeros_like(xa)  # lookalike: *_like factory
        pad = xa.new_ones(xa.shape[0], 1, xa.shape[2])  # lookalike: new_* factory
        out = torch.cat([xa + zeros, yb], dim=1)
        return out * pad, logdet


def example():
    torch.manual_seed(0)
    model = AffineCoupling().to(torch.bfloat16)
    return model, (torch.randn(2, 8, 20, dtype=torch.bfloat16),)
