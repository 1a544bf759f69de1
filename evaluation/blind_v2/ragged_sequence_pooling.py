"""Pooling over ragged (packed) token sequences, e.g. for variable-length audio clips."""

import torch
import torch.nn as nn


class RaggedMeanPool(nn.Module):
    def __init__(self, dim: int = 16, num_classes: int = 4):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.cls = nn.Linear(dim, num_classes)

    def forward(self, packed, lengths):
        """packed: (sum(lengths), D) concatenated tokens; lengths: (B,) int64."""
        B = lengths.shape[0]
        max_len = int(lengths.max())
        seg_ids = torch.repeat_interleave(torch.arange(B, device=packed.device), lengths)
        offsets = torch.cumsum(lengths, dim=0) - lengths
        pos = torch.arange(packed.shape[0], device=packed.device) - offsets[seg_ids]
        padded = packed.new_zeros(B, max_len, packed.shape[-1])
        padded[seg_ids, pos] = self.proj(packed)
        mask = torch.arange(max_len, device=packed.device)[None, :] < lengths[:, None]
        pooled = (padded * mask[..., None]).sum(1) / lengths[:, None]
        last_idx = mask.sum(1) - 1
        last = padded[torch.arange(B, device=packed.device), last_idx]
        nonempty = torch.nonzero(lengths > 0).squeeze(1)
        logits = self.cls(pooled + last)
        return logits[nonempty]


def example():
    lengths = torch.tensor([3, 5, 2])
    packed = torch.randn(int(lengths.sum()), 16, dtype=torch.bfloat16)
    return RaggedMeanPool().to(torch.bfloat16), (packed, lengths)
