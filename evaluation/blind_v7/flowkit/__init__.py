"""flowkit: a small RAFT-style optical flow package.

Modules:
    estimator  -- iterative flow refinement with a local window lookup
    encoder    -- context encoder with a positional embedding of the pixel grid
    upsample   -- RAFT convex upsampling
    ops        -- grid helpers (re-exported from ops/grids.py)
"""
from .encoder import PositionalContextEncoder
from .estimator import LiteFlowEstimator
from .upsample import ConvexUpsampler

__all__ = ["LiteFlowEstimator", "ConvexUpsampler", "PositionalContextEncoder"]


def example():
    from .upsample import example as _upsample_example

    return _upsample_example()
