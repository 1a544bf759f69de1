"""CLIP-style symmetric contrastive loss with a learnable temperature."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ClipHead(nn.Module):
    def __init__(self, img_dim: int = 16, txt_dim: int = 12, embed_dim: int = 8):
        super().__init__()
        self.img_proj = nn.Linear(img_dim, embed_dim, bias=False)
        self.txt_proj = nn.Linear(txt_dim, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def forward(self, img_feats, txt_feats):
        img = F.normalize(self.img_proj(img_feats), dim=-1)
        txt = F.normalize(self.txt_proj(txt_feats), dim=-1)
        logits = self.logit_scale.exp().clamp(max=100) * img @ txt.t()
        labels = torch.arange(img.shape[0], device=img.device)
        loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
        acc = (logits.argmax(dim=1) == labels).float().mean()
        return loss, acc.to(loss.dtype)


def example():
    return ClipHead().to(torch.bfloat16), (torch.randn(4, 16, dtype=torch.bfloat16), torch.randn(4, 12, dtype=torch.bfloat16))
