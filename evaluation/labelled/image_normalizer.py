import torch
import torch.nn as nn


class ImageNormalizer(nn.Module):
    def __init__(self, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225)):
        super().__init__()
        self.mean = torch.tensor(mean).view(1, 3, 1, 1)  # expect: DTL005
        self.std = torch.tensor(std).view(1, 3, 1, 1)  # expect: DTL005
        self.scale = 1.0 / 255.0  # lookalike: Python float attribute

    def forward(self, img):
        return (img * self.scale - self.mean) / self.std

    def to_bgr(self, img):
        order = torch.tensor([2, 1, 0], device=img.device)  # lookalike: integer index tensor
        return img[:, order]
