import torch.nn as nn
import torch.nn.functional as F


class ClassifierHead(nn.Module):
    def __init__(self, dim: int, num_classes: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.classifier = nn.Linear(dim, num_classes, bias=False)

    def forward(self, feats):
        feats = self.norm(feats)
        logits = F.linear(feats.float(), self.classifier.weight)  # expect: DTL003
        return logits

    def fp32_logits(self, feats):
        feats = self.norm(feats)
        return F.linear(feats.float(), self.classifier.weight.float())  # lookalike: both sides cast
