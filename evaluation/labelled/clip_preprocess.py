import torch
import torch.nn as nn
import torch.nn.functional as F


class ClipPreprocess(nn.Module):
    def __init__(self, size: int = 224):
        super().__init__()
        self.size = size

    def forward(self, images):
        images = F.interpolate(images, size=(self.size, self.size), mode="bicubic", align_corners=False)
        mean = torch.tensor([0.4815, 0.4578, 0.4082], device=images.device).view(1, 3, 1, 1)  # expect: DTL001
        std = torch.tensor([0.2686, 0.2613, 0.2758], device=images.device, dtype=images.dtype)  # lookalike: dtype given
        return (images - mean) / std.view(1, 3, 1, 1)
