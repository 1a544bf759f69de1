import numpy as np
import torch
from torch import Tensor


def normalize_depth(depth: Tensor) -> Tensor:
    """Robust per-image normalisation of predicted depth (B, 1, H, W) with NumPy percentiles."""
    d = depth.detach().float().cpu().numpy()
    lo_hi = torch.as_tensor(np.percentile(d, [2, 98], axis=(1, 2, 3)).T, device=depth.device)  # expect: DTL004
    lo, hi = lo_hi[:, :1, None, None], lo_hi[:, 1:, None, None]
    return (depth - lo) / (hi - lo).clamp(min=1e-6)


def gamma_correct(depth: Tensor, target_median: float = 0.5) -> Tensor:
    med = float(np.median(depth.detach().float().cpu().numpy()))  # lookalike: NumPy scalar converted to a Python float
    gamma = float(np.log(target_median) / np.log(max(med, 1e-6)))
    return depth.clamp(min=0) ** gamma
