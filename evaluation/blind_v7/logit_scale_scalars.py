import math

import torch
from torch import nn
import torch.nn.functional as F


class ContrastiveHead(nn.Module):
    """CLIP/SigLIP logits: learned temperature and bias are 0-dim, so they promote nothing."""

    def __init__(self, dim: int = 32, init_temp: float = 0.07) -> None:
        super().__init__()
        self.img_proj = nn.Linear(dim, dim, bias=False)
        self.txt_proj = nn.Linear(dim, dim, bias=False)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / init_temp))
        self.logit_bias = nn.Parameter(torch.tensor(-10.0))

    def forward(self, img_feat: torch.Tensor, txt_feat: torch.Tensor) -> torch.Tensor:
        img = F.normalize(self.img_proj(img_feat), dim=-1)
        txt = F.normalize(self.txt_proj(txt_feat), dim=-1)
        max_scale = torch.tensor(100.0, device=img.device)  # lookalike: 0-dim scalar tensor
        scale = torch.minimum(self.logit_scale.exp(), max_scale)
        logits = scale * img @ txt.t() + self.logit_bias
        return logits * torch.tensor(1.0 / math.sqrt(2.0), device=img.device)  # lookalike: 0-dim scalar tensor


def example():
    torch.manual_seed(0)
    model = ContrastiveHead().to(torch.bfloat16)
    return model, (torch.randn(4, 32, dtype=torch.bfloat16), torch.randn(4, 32, dtype=torch.bfloat16))
