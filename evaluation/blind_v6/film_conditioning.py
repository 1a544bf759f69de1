"""FiLM conditioning of a conv trunk on a text/audio embedding (feature-wise affine modulation)."""
import torch
import torch.nn as nn


class FiLMBlock(nn.Module):
    def __init__(self, channels: int = 32, cond_dim: int = 24):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)
        self.norm = nn.GroupNorm(4, channels, affine=False)
        self.to_film = nn.Linear(cond_dim, channels * 2)

    def forward(self, x: torch.Tensor, cond: torch.Tensor) -> torch.Tensor:
        gamma, beta = self.to_film(cond.float()).chunk(2, dim=-1)  # expect: DTL003
        h = self.norm(self.conv(x))
        return x + torch.relu(h * (1 + gamma[:, :, None, None]) + beta[:, :, None, None])


class FiLMNet(nn.Module):
    def __init__(self, cond_dim: int = 24, depth: int = 2):
        super().__init__()
        self.stem = nn.Conv2d(3, 32, 3, padding=1)
        self.blocks = nn.ModuleList([FiLMBlock(32, cond_dim) for _ in range(depth)])

    def forward(self, img: torch.Tensor, cond: torch.Tensor) -> torch.Tensor:
        x = self.stem(img)
        for blk in self.blocks:
            x = blk(x, cond)
        return x.mean(dim=(2, 3))


def example():
    net = FiLMNet().to(torch.bfloat16)
    return net, (torch.randn(2, 3, 16, 16, dtype=torch.bfloat16), torch.randn(2, 24, dtype=torch.bfloat16))
