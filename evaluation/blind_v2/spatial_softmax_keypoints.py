"""Spatial soft-argmax keypoint layer for visuomotor policies (Levine et al. 2016)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatialSoftmax(nn.Module):
    def __init__(self, height: int, width: int, in_ch: int, num_kp: int = 8, temperature: float = 1.0):
        super().__init__()
        self.keypoints = nn.Conv2d(in_ch, num_kp, 1)
        self.temperature = temperature
        pos_x, pos_y = torch.meshgrid(torch.linspace(-1.0, 1.0, width), torch.linspace(-1.0, 1.0, height), indexing="xy")
        self.pos_x = pos_x.reshape(1, height * width)  # expect: DTL005
        self.pos_y = pos_y.reshape(1, height * width)  # expect: DTL005

    def forward(self, feature):
        x = self.keypoints(feature)
        B, K, H, W = x.shape
        attention = F.softmax(x.reshape(B * K, H * W) / self.temperature, dim=-1)
        expected_x = (self.pos_x * attention).sum(dim=1, keepdim=True)
        expected_y = (self.pos_y * attention).sum(dim=1, keepdim=True)
        return torch.cat([expected_x, expected_y], dim=1).view(B, K * 2)


class VisuomotorPolicy(nn.Module):
    def __init__(self, action_dim: int = 7):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.pool = SpatialSoftmax(8, 8, 16)
        self.head = nn.Linear(16, action_dim)

    def forward(self, image):
        return self.head(self.pool(self.backbone(image)))


def example():
    policy = VisuomotorPolicy().to(torch.bfloat16)
    return policy, (torch.rand(2, 3, 8, 8, dtype=torch.bfloat16),)
