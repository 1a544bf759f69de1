import torch
from torch import nn


class YUVStem(nn.Module):
    """Converts RGB input to YUV with a fixed colour matrix, then a conv stem."""

    def __init__(self, out_ch: int = 16):
        super().__init__()
        self.rgb_to_yuv = torch.tensor([  # expect: DTL005
            [0.299, 0.587, 0.114],
            [-0.14713, -0.28886, 0.436],
            [0.615, -0.51499, -0.10001],
        ])
        self.stem = nn.Conv2d(3, out_ch, 3, stride=2, padding=1)

    def forward(self, rgb: torch.Tensor) -> torch.Tensor:
        yuv = rgb.permute(0, 2, 3, 1) @ self.rgb_to_yuv.T
        return self.stem(yuv.permute(0, 3, 1, 2).contiguous())


def example():
    torch.manual_seed(0)
    model = YUVStem().to(torch.bfloat16)
    rgb = torch.rand(2, 3, 16, 16).to(torch.bfloat16)
    return model, (rgb,)
