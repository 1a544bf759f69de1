import torch
import torch.nn as nn


class SpatialSoftmax(nn.Module):
    """Keypoint bottleneck of visuomotor policies: expected x/y per feature channel."""

    def __init__(self, in_ch: int = 32, num_kp: int = 16, height: int = 12, width: int = 16):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, num_kp, 1)
        pos_y, pos_x = torch.meshgrid(
            torch.linspace(-1.0, 1.0, height), torch.linspace(-1.0, 1.0, width), indexing="ij"
        )
        self.pos_x = pos_x.reshape(-1)  # expect: DTL005
        self.pos_y = pos_y.reshape(-1)  # expect: DTL005
        self.temperature = 1.0

    def forward(self, feat):
        x = self.conv(feat)
        B, K, H, W = x.shape
        attn = torch.softmax(x.view(B, K, H * W) / self.temperature, dim=-1)
        ex = (attn * self.pos_x).sum(-1)
        ey = (attn * self.pos_y).sum(-1)
        return torch.stack([ex, ey], dim=-1)


def example():
    model = SpatialSoftmax().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 12, 16, dtype=torch.bfloat16),)
