"""Small tensor helpers shared by the dense heads (mmdet's core/utils/misc.py style)."""
from functools import partial

import torch


def multi_apply(func, *args, **kwargs):
    pfunc = partial(func, **kwargs) if kwargs else func
    return tuple(map(list, zip(*map(pfunc, *args))))


def scale_by_level(feat: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """Re-weight the channels of one pyramid level."""
    return feat * scales.view(1, -1, 1, 1)


def example():
    feat = torch.randn(2, 8, 4, 4, dtype=torch.bfloat16)
    scales = torch.rand(8, dtype=torch.bfloat16)
    return scale_by_level, (feat, scales)
