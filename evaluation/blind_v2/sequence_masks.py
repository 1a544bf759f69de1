"""Attention-mask construction for a speech encoder with optional padding information."""

from typing import Optional

import torch
import torch.nn as nn


def make_pad_mask(lengths: Optional[torch.Tensor], max_len: int, device: torch.device):
    """True where a frame is padding. Without lengths every frame is valid."""
    if lengths is None:
        return torch.zeros(1, max_len, dtype=torch.bool, device=device)
    frames = torch.arange(max_len, device=device)
    return frames[None, :] >= lengths[:, None]


def make_chunk_mask(size: int, chunk: int, device: torch.device):
    """Block-causal mask for streaming: each frame sees its chunk and the past."""
    idx = torch.arange(size, device=device)
    limit = (idx // chunk + 1) * chunk
    return idx[None, :] >= limit[:, None]


class StreamingEncoderLayer(nn.Module):
    def __init__(self, dim: int = 16, chunk: int = 4):
        super().__init__()
        self.chunk = chunk
        self.attn = nn.MultiheadAttention(dim, 2, batch_first=True)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x, lengths: Optional[torch.Tensor] = None):
        B, T, _ = x.shape
        pad = make_pad_mask(lengths, T, x.device).expand(B, T)
        chunk_mask = make_chunk_mask(T, self.chunk, x.device)
        h = self.norm(x)
        out, _ = self.attn(h, h, h, key_padding_mask=pad, attn_mask=chunk_mask, need_weights=False)
        return x + out.masked_fill(pad[..., None], 0.0)


def example():
    return StreamingEncoderLayer().to(torch.bfloat16).eval(), (torch.randn(2, 8, 16, dtype=torch.bfloat16), torch.tensor([8, 5]))


def example_unpadded():
    return StreamingEncoderLayer().to(torch.bfloat16).eval(), (torch.randn(1, 8, 16, dtype=torch.bfloat16),)
