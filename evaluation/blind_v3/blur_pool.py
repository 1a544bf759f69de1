import torch
import torch.nn.functional as F
from torch import nn


class BlurPool(nn.Module):
    """Anti-aliased downsampling: fixed Gaussian low-pass, then stride 2."""

    def __init__(self, channels: int, ksize: int = 5, sigma: float = 1.0):
        super().__init__()
        coords = torch.arange(ksize) - ksize // 2
        g = torch.exp(-(coords ** 2) / (2 * sigma ** 2))
        g = g / g.sum()
        self.kernel = (g[:, None] * g[None, :]).expand(channels, 1, ksize, ksize).contiguous()  # expect: DTL005
        self.channels = channels
        self.pad = ksize // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.pad(x, [self.pad] * 4, mode="reflect")
        return F.conv2d(x, self.kernel, stride=2, groups=self.channels)


class DownBlock(nn.Module):
    def __init__(self, in_ch: int = 3, out_ch: int = 8):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.down = BlurPool(out_ch)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(torch.relu(self.conv(x)))


def example():
    torch.manual_seed(0)
    model = DownBlock().to(torch.bfloat16)
    x = torch.randn(2, 3, 16, 16).to(torch.bfloat16)
    return model, (x,)
