"""U-Net decoder stage that pads and fuses skip connections using *_like / new_* factories."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class UpFuse(nn.Module):
    def __init__(self, in_ch: int = 32, skip_ch: int = 16, out_ch: int = 16):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_ch, in_ch // 2, 2, stride=2)
        self.conv = nn.Sequential(nn.Conv2d(in_ch // 2 + skip_ch + 1, out_ch, 3, padding=1), nn.ReLU())

    def forward(self, x: torch.Tensor, skip: torch.Tensor) -> torch.Tensor:
        x = self.up(x)
        dh, dw = skip.shape[-2] - x.shape[-2], skip.shape[-1] - x.shape[-1]
        if dh or dw:
            canvas = x.new_zeros(x.shape[0], x.shape[1], skip.shape[-2], skip.shape[-1])  # lookalike: new_zeros
            canvas[..., : x.shape[-2], : x.shape[-1]] = x
            x = canvas
        gate = torch.ones_like(skip[:, :1])  # lookalike: ones_like
        bias = x.new_full((1, 1, 1, 1), 0.5)  # lookalike: new_full
        noise = torch.randn_like(skip) * 0.01  # lookalike: randn_like
        return self.conv(torch.cat([x + bias, skip + noise, gate], dim=1))


def example():
    m = UpFuse().to(torch.bfloat16)
    return m, (torch.randn(2, 32, 4, 4, dtype=torch.bfloat16), torch.randn(2, 16, 9, 9, dtype=torch.bfloat16))
