import math

import torch
import torch.nn.functional as F
from torch import nn


class ImageTextMatcher(nn.Module):
    """CLIP-style similarity with a learned 0-dim logit scale and 0-dim clamping constants."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.img_proj = nn.Linear(dim, dim)
        self.txt_proj = nn.Linear(dim, dim)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def forward(self, img_feats, txt_feats, txt_valid):
        img = F.normalize(self.img_proj(img_feats), dim=-1)
        txt = F.normalize(self.txt_proj(txt_feats), dim=-1)
        scale = self.logit_scale.exp().clamp(max=100.0)
        logits = scale * img @ txt.t()
        neg_inf = torch.tensor(-1e4, device=logits.device)  # lookalike: 0-dim scalar
        logits = torch.where(txt_valid[None, :], logits, neg_inf)
        floor = torch.tensor(1e-6, device=logits.device)  # lookalike: 0-dim scalar
        best = torch.maximum(logits.softmax(dim=-1).amax(dim=-1), floor)
        return logits, best


def example():
    torch.manual_seed(0)
    model = ImageTextMatcher().to(torch.bfloat16)
    img = torch.randn(4, 32, dtype=torch.bfloat16)
    txt = torch.randn(6, 32, dtype=torch.bfloat16)
    valid = torch.tensor([True, True, False, True, True, False])
    return model, (img, txt, valid)
