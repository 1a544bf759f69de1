from typing import Optional

import torch
from torch import Tensor


def add_attention_bias(scores: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    if bias is None:
        bias = torch.zeros(scores.shape[-1], device=scores.device)  # expect: DTL001
    return scores + bias


def add_position(x: torch.Tensor, pos: torch.Tensor | None = None) -> torch.Tensor:
    if pos is None:
        pos = x.new_zeros(x.shape[-1])  # lookalike: new_*
    return x + pos


def key_padding_bias(scores: Tensor, lengths: Tensor) -> Tensor:
    L = scores.shape[-1]
    pad = torch.arange(L, device=scores.device)[None] >= lengths[:, None]  # lookalike: integer arange as mask
    return scores.masked_fill(pad[:, None, None, :], float("-inf"))
