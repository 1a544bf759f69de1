# run-dtype: float32
import numpy as np
import torch

TURBO_STOPS = np.array(
    [[0.19, 0.07, 0.23], [0.12, 0.57, 0.93], [0.40, 0.97, 0.43], [0.98, 0.66, 0.13], [0.48, 0.02, 0.01]]
)


def colorize_depth(depth: torch.Tensor, vmin=None, vmax=None) -> np.ndarray:
    """Depth map (H, W) -> uint8 RGB image for logging / plotting."""
    d = depth.detach().float().cpu().numpy()
    vmin = float(np.percentile(d, 2)) if vmin is None else vmin
    vmax = float(np.percentile(d, 98)) if vmax is None else vmax
    x = np.clip((d - vmin) / max(vmax - vmin, 1e-6), 0.0, 1.0)
    stops = torch.linspace(0, 1, len(TURBO_STOPS)).numpy()
    rgb = np.stack([np.interp(x, stops, TURBO_STOPS[:, c]) for c in range(3)], axis=-1)
    return (rgb * 255).astype(np.uint8)


def depth_panel(depths: list) -> np.ndarray:
    tiles = [colorize_depth(d) for d in depths]
    return np.concatenate(tiles, axis=1)


def example():
    return depth_panel, ([torch.rand(12, 16) * 10, torch.rand(12, 16) * 5],)
