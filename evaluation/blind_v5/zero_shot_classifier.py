import torch
import torch.nn.functional as F
from torch import nn


class ZeroShotClassifierHead(nn.Module):
    """CLIP-style head: cosine similarity to class embeddings, a temperature and a logit bias."""

    def __init__(self, dim: int = 32, num_classes: int = 10):
        super().__init__()
        self.proj = nn.Linear(dim, dim, bias=False)
        self.class_embeds = nn.Parameter(torch.randn(num_classes, dim))
        self.temperature = torch.tensor(0.07)  # lookalike: 0-dim scalar
        self.logit_bias = torch.zeros(num_classes)  # expect: DTL005

    def forward(self, feats):
        img = F.normalize(self.proj(feats), dim=-1)
        txt = F.normalize(self.class_embeds, dim=-1)
        logits = img @ txt.T / self.temperature
        return logits + self.logit_bias


def example():
    torch.manual_seed(0)
    model = ZeroShotClassifierHead().to(torch.bfloat16)
    feats = torch.randn(4, 32, dtype=torch.bfloat16)
    return model, (feats,)
