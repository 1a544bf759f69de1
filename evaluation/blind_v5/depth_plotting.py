# run-dtype: float32
import torch

_STOPS = [[0.05, 0.0, 0.4], [0.0, 0.45, 1.0], [0.95, 0.95, 0.1], [0.9, 0.05, 0.0]]


def colorize_depth(depth, vmin=None, vmax=None):
    """Depth map (H, W) to a uint8 RGB image with a 4-stop colour ramp, for logging."""
    d = depth.detach().float().cpu()
    lo = d.min() if vmin is None else torch.tensor(float(vmin))
    hi = d.max() if vmax is None else torch.tensor(float(vmax))
    norm = ((d - lo) / (hi - lo).clamp(min=1e-6)).clamp(0, 1)
    stops = torch.tensor(_STOPS)
    x = norm * (len(_STOPS) - 1)
    i0 = x.floor().long().clamp(max=len(_STOPS) - 2)
    w = (x - i0)[..., None]
    rgb = stops[i0] * (1 - w) + stops[i0 + 1] * w
    return (rgb * 255).round().to(torch.uint8)


def depth_panel(depths, pad: int = 2):
    """Tiles several colourised depth maps side by side with a white gutter."""
    tiles = [colorize_depth(d) for d in depths]
    H = max(t.shape[0] for t in tiles)
    canvas = torch.full((H, sum(t.shape[1] + pad for t in tiles), 3), 255, dtype=torch.uint8)
    x = 0
    for t in tiles:
        canvas[: t.shape[0], x : x + t.shape[1]] = t
        x += t.shape[1] + pad
    return canvas


def example():
    torch.manual_seed(0)
    depths = [torch.rand(12, 16) * 50, torch.rand(12, 16) * 20]
    return depth_panel, (depths,)
