"""Visualization helper: turns a depth map into an RGB uint8 image for logging."""

import torch

TURBO_KEYS = [
    (0.18995, 0.07176, 0.23217),
    (0.25107, 0.25237, 0.63374),
    (0.15844, 0.73551, 0.92305),
    (0.64362, 0.98999, 0.23356),
    (0.98826, 0.64611, 0.16214),
    (0.47960, 0.01583, 0.01055),
]


def colorize_depth(depth, min_depth=None, max_depth=None):
    """depth: (H, W) -> (H, W, 3) uint8 NumPy image for TensorBoard / wandb."""
    d = depth.detach().float().cpu()
    lo = d.min() if min_depth is None else torch.tensor(min_depth)
    hi = d.max() if max_depth is None else torch.tensor(max_depth)
    x = ((d - lo) / (hi - lo).clamp(min=1e-6)).clamp(0, 1)
    keys = torch.tensor(TURBO_KEYS)
    pos = torch.linspace(0, 1, len(TURBO_KEYS))
    idx = torch.bucketize(x, pos).clamp(1, len(TURBO_KEYS) - 1)
    w = ((x - pos[idx - 1]) / (pos[idx] - pos[idx - 1]))[..., None]
    rgb = keys[idx - 1] * (1 - w) + keys[idx] * w
    canvas = torch.zeros(*d.shape, 3)
    canvas[:] = rgb
    return (canvas * 255).round().to(torch.uint8).numpy()


def example():
    depth = torch.rand(6, 8) * 10
    return colorize_depth, (depth,), {"max_depth": 8.0}
