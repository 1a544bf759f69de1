import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineRoIClassifier(nn.Module):
    """Few-shot detection box classifier with normalized (cosine) logits."""

    def __init__(self, dim: int = 32, num_classes: int = 21, scale: float = 20.0):
        super().__init__()
        self.scale = scale
        self.weight = nn.Parameter(torch.randn(num_classes, dim) * 0.02)
        self.bias = nn.Parameter(torch.zeros(num_classes))

    def forward(self, roi_feats):
        pooled = F.normalize(roi_feats.mean(dim=(2, 3)), dim=-1)
        w = F.normalize(self.weight, dim=-1)
        return self.scale * F.linear(pooled.to(torch.float32), w, self.bias)  # expect: DTL003


def example():
    model = CosineRoIClassifier().to(torch.bfloat16)
    return model, (torch.randn(10, 32, 7, 7, dtype=torch.bfloat16),)
