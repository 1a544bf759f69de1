import torch
import torch.nn as nn


class ContrastiveHead(nn.Module):
    """CLIP-like image/text similarity with a fixed temperature."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.img_proj = nn.Linear(dim, dim)
        self.txt_proj = nn.Linear(dim, dim)
        self.temperature = torch.tensor(0.07)  # lookalike: 0-dim scalar attribute

    def forward(self, img_feats, txt_feats):
        eps = torch.tensor(1e-6)  # lookalike: 0-dim scalar
        i = self.img_proj(img_feats)
        i = i / (i.norm(dim=-1, keepdim=True) + eps)
        t = self.txt_proj(txt_feats)
        t = t / (t.norm(dim=-1, keepdim=True) + eps)
        return (i @ t.T) / self.temperature  # lookalike: `t` is an activation, not a translation


def example():
    model = ContrastiveHead().to(torch.bfloat16)
    return model, (torch.randn(4, 32, dtype=torch.bfloat16), torch.randn(5, 32, dtype=torch.bfloat16))
