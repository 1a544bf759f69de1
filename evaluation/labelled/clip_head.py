import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ClipHead(nn.Module):
    """Image-text logits plus logits against a fixed bank of class prompts."""

    def __init__(self, dim: int, embed_dim: int, num_classes: int):
        super().__init__()
        self.visual_head = nn.Linear(dim, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))  # lookalike: parameter
        self.text_bank = F.normalize(torch.randn(num_classes, embed_dim), dim=-1)  # expect: DTL005

    def forward(self, x, text_emb):
        img = F.normalize(self.visual_head(x), dim=-1)
        txt = F.normalize(text_emb, dim=-1)
        logits = self.logit_scale.exp() * torch.matmul(img, txt.float().t())  # expect: DTL003
        bank_logits = img @ self.text_bank.t()
        return logits, bank_logits
