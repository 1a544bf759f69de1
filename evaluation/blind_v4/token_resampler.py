import torch
import torch.nn.functional as F


def resample_tokens(feat: torch.Tensor, size: tuple, cfg: dict, temperature: float, device: torch.device):
    """Resize a feature map, flatten it to tokens in a mirrored raster order, re-weight them."""
    feat = F.interpolate(feat.to(device), size=size, mode=cfg.get("mode", "bilinear"), align_corners=False)
    B, C, H, W = feat.shape
    flat = feat.flatten(2).transpose(1, 2)
    order = torch.arange(H * W, device=device).view(H, W).flip(1).reshape(-1)  # lookalike: index
    scores = flat.mean(-1) / temperature
    weights = torch.softmax(scores, dim=-1)
    return flat[:, order] * weights[:, order, None]


def example():
    feat = torch.randn(2, 16, 12, 12, dtype=torch.bfloat16)
    return resample_tokens, (feat, (8, 8), {"mode": "bilinear"}, 0.5, torch.device("cpu"))
