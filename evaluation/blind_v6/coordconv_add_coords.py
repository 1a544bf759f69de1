"""CoordConv (Liu et al.): append normalised x/y coordinate channels, cast to the input's type."""
import torch
import torch.nn as nn


class AddCoords(nn.Module):
    def __init__(self, with_r: bool = False):
        super().__init__()
        self.with_r = with_r

    def forward(self, input_tensor: torch.Tensor) -> torch.Tensor:
        batch_size, _, x_dim, y_dim = input_tensor.size()
        xx_channel = torch.arange(x_dim, device=input_tensor.device).repeat(1, y_dim, 1)  # lookalike: integer grid, cast below
        yy_channel = torch.arange(y_dim, device=input_tensor.device).repeat(1, x_dim, 1).transpose(1, 2)
        xx_channel = xx_channel.to(input_tensor.dtype) / (x_dim - 1)  # lookalike: cast to the activation dtype
        yy_channel = yy_channel.to(input_tensor.dtype) / (y_dim - 1)
        xx_channel = (xx_channel * 2 - 1).repeat(batch_size, 1, 1, 1).transpose(2, 3)
        yy_channel = (yy_channel * 2 - 1).repeat(batch_size, 1, 1, 1).transpose(2, 3)
        ret = torch.cat([input_tensor, xx_channel.type_as(input_tensor), yy_channel.type_as(input_tensor)], dim=1)
        if self.with_r:
            rr = torch.sqrt(torch.pow(xx_channel - 0.5, 2) + torch.pow(yy_channel - 0.5, 2))
            ret = torch.cat([ret, rr], dim=1)
        return ret


class CoordConv(nn.Module):
    def __init__(self, in_channels: int = 8, out_channels: int = 16, with_r: bool = True):
        super().__init__()
        self.addcoords = AddCoords(with_r)
        self.conv = nn.Conv2d(in_channels + 2 + int(with_r), out_channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(self.addcoords(x))


def example():
    m = CoordConv().to(torch.bfloat16)
    return m, (torch.randn(2, 8, 10, 12, dtype=torch.bfloat16),)
