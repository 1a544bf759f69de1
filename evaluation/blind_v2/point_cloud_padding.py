"""Batches variable-size point clouds and prepends a learned [CLS] point token."""

import torch
import torch.nn as nn


class PointTokenizer(nn.Module):
    def __init__(self, dim: int = 16):
        super().__init__()
        self.embed = nn.Linear(3, dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))

    def forward(self, points, lengths):
        """points: (B, N, 3) zero-padded; lengths: (B,) number of valid points."""
        B, N, _ = points.shape
        tokens = self.embed(points)
        valid = torch.arange(N, device=points.device)[None] < lengths[:, None]
        tokens = torch.where(valid[..., None], tokens, torch.zeros_like(tokens))
        cls = self.cls.expand(B, -1, -1)
        pad = tokens.new_zeros(B, 2, tokens.shape[-1])
        bias = torch.ones(1, 1, tokens.shape[-1]).to(tokens)
        scale = torch.tensor([1.0, 1.0, 0.5], device=points.device).type_as(points)
        centroid = (points * valid[..., None]).sum(1) / lengths[:, None].clamp(min=1)
        centroid_tok = self.embed(centroid * scale)[:, None]
        offset = torch.full((1, 1, tokens.shape[-1]), 0.1, device=points.device).to(tokens.dtype)
        prior = tokens.new_tensor([0.5]).expand(tokens.shape[-1])
        return torch.cat([cls, centroid_tok, tokens * bias + offset + prior, pad], dim=1)


def example():
    points = torch.randn(2, 7, 3, dtype=torch.bfloat16)
    lengths = torch.tensor([7, 4])
    return PointTokenizer().to(torch.bfloat16), (points, lengths)
