"""Input stem that normalizes RGB images and mixes in a YUV representation."""

import numpy as np
import torch
import torch.nn as nn

RGB_TO_YUV = np.array(
    [[0.299, 0.587, 0.114], [-0.14713, -0.28886, 0.436], [0.615, -0.51499, -0.10001]],
    dtype=np.float32,
)


class ColorSpaceStem(nn.Module):
    def __init__(self, out_channels: int = 16, pixel_mean=(0.485, 0.456, 0.406), pixel_std=(0.229, 0.224, 0.225)):
        super().__init__()
        self.pixel_mean = np.asarray(pixel_mean)
        self.pixel_std = np.asarray(pixel_std)
        self.rgb_to_yuv = RGB_TO_YUV
        self.conv = nn.Conv2d(6, out_channels, 3, padding=1)

    def forward(self, images):
        """images: (B, 3, H, W) in [0, 1]."""
        mean = torch.tensor(self.pixel_mean, device=images.device).view(1, 3, 1, 1)  # expect: DTL004
        std = torch.tensor(self.pixel_std, device=images.device, dtype=images.dtype).view(1, 3, 1, 1)
        normalized = (images - mean) / std
        yuv = images.permute(0, 2, 3, 1) @ torch.as_tensor(self.rgb_to_yuv).T  # expect: DTL004
        x = torch.cat([normalized, yuv.permute(0, 3, 1, 2)], dim=1)
        return self.conv(x)


def example():
    stem = ColorSpaceStem().to(torch.bfloat16)
    return stem, (torch.rand(2, 3, 8, 8, dtype=torch.bfloat16),)
