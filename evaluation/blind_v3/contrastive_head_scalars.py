import math

import torch
import torch.nn.functional as F
from torch import nn


class ContrastiveHead(nn.Module):
    """CLIP-like similarity head using 0-dim constants."""

    def __init__(self, dim: int = 16, proj: int = 8):
        super().__init__()
        self.img_proj = nn.Linear(dim, proj)
        self.txt_proj = nn.Linear(dim, proj)
        self.temperature = torch.tensor(0.07)  # lookalike: 0-dim scalar attribute

    def forward(self, img: torch.Tensor, txt: torch.Tensor) -> torch.Tensor:
        a = self.img_proj(img)
        b = self.txt_proj(txt)
        eps = torch.tensor(1e-6, device=a.device)  # lookalike: 0-dim scalar
        a = a / torch.maximum(a.norm(dim=-1, keepdim=True), eps)
        b = F.normalize(b, dim=-1)
        logits = a @ b.T / self.temperature
        angle = torch.acos(logits.clamp(-1, 1) * self.temperature) / torch.tensor(math.pi)  # lookalike: 0-dim scalar
        return torch.where(logits > 0, logits, torch.tensor(0.0)) + angle  # lookalike: 0-dim scalar


def example():
    torch.manual_seed(0)
    model = ContrastiveHead().to(torch.bfloat16)
    img = torch.randn(4, 16).to(torch.bfloat16)
    txt = torch.randn(4, 16).to(torch.bfloat16)
    return model, (img, txt)
