"""CLIP contrastive head: normalised embeddings, learned temperature and arange targets."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContrastiveHead(nn.Module):
    def __init__(self, img_dim: int = 48, txt_dim: int = 32, embed_dim: int = 24):
        super().__init__()
        self.visual_projection = nn.Linear(img_dim, embed_dim, bias=False)
        self.text_projection = nn.Linear(txt_dim, embed_dim, bias=False)
        self.logit_scale = nn.Parameter(torch.ones([]) * np.log(1 / 0.07))

    def forward(self, image_embeds: torch.Tensor, text_embeds: torch.Tensor) -> torch.Tensor:
        image_features = self.visual_projection(image_embeds)
        text_features = self.text_projection(text_embeds)
        image_features = image_features / image_features.norm(dim=1, keepdim=True)
        text_features = text_features / text_features.norm(dim=1, keepdim=True)
        logit_scale = self.logit_scale.exp()
        logits_per_image = logit_scale * image_features @ text_features.t()
        labels = torch.arange(logits_per_image.shape[0], device=logits_per_image.device)  # lookalike: index targets
        loss = (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_image.t(), labels)) / 2
        return loss


def example():
    m = ContrastiveHead().to(torch.bfloat16)
    return m, (torch.randn(6, 48, dtype=torch.bfloat16), torch.randn(6, 32, dtype=torch.bfloat16))
