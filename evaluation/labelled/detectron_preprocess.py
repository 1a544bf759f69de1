import torch
import torch.nn as nn
import torch.nn.functional as F


class Preprocess(nn.Module):
    def __init__(self, mean=(123.675, 116.28, 103.53), std=(58.395, 57.12, 57.375)):
        super().__init__()
        self.register_buffer("pixel_mean", torch.tensor(mean).view(-1, 1, 1), persistent=False)  # lookalike: buffer
        self.register_buffer("pixel_std", torch.tensor(std).view(-1, 1, 1), persistent=False)  # lookalike: buffer
        self.size_divisibility = 32

    def forward(self, images):
        images = (images - self.pixel_mean) / self.pixel_std
        H, W = images.shape[-2:]
        d = self.size_divisibility
        return F.pad(images, (0, (d - W % d) % d, 0, (d - H % d) % d), value=0.0)
