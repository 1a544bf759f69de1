"""Small stereo-matching package: cost-volume helpers and the networks using them."""
from .cost_ops import build_concat_volume, soft_argmin

__all__ = ["build_concat_volume", "soft_argmin"]
