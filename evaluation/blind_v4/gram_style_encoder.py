import torch
import torch.nn as nn


class GramStyleEncoder(nn.Module):
    """Style statistics: Gram matrices of conv features (products of two activations)."""

    def __init__(self, ch: int = 16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, ch, 3, padding=1)
        self.conv2 = nn.Conv2d(ch, ch, 3, stride=2, padding=1)

    def forward(self, images):
        grams = []
        h = images
        for conv in (self.conv1, self.conv2):
            h = torch.relu(conv(h))
            B, C, H, W = h.shape
            f = h.flatten(2)
            grams.append(torch.bmm(f, f.transpose(1, 2)) / (C * H * W))  # lookalike: activation @ activation
        return torch.einsum("bij,bij->b", grams[0], grams[1]), grams


def example():
    model = GramStyleEncoder().to(torch.bfloat16)
    return model, (torch.rand(2, 3, 16, 16, dtype=torch.bfloat16),)
