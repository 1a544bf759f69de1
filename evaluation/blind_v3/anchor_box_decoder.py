import numpy as np
import torch
from torch import nn


def decode_boxes(deltas: torch.Tensor, anchors: np.ndarray) -> torch.Tensor:
    """Apply (dx, dy, dw, dh) deltas (B, A, 4) to xyxy anchors (A, 4) precomputed in NumPy."""
    a = torch.as_tensor(anchors, device=deltas.device)  # expect: DTL004
    wh = a[:, 2:] - a[:, :2]
    ctr = a[:, :2] + 0.5 * wh
    pred_ctr = ctr + deltas[..., :2] * wh
    pred_wh = wh * deltas[..., 2:].exp()
    return torch.cat([pred_ctr - 0.5 * pred_wh, pred_ctr + 0.5 * pred_wh], dim=-1)


class AnchorHead(nn.Module):
    def __init__(self, in_ch: int = 8, n_anchors: int = 3):
        super().__init__()
        self.n_anchors = n_anchors
        self.reg = nn.Conv2d(in_ch, n_anchors * 4, 1)

    def forward(self, feat: torch.Tensor, anchors: np.ndarray) -> torch.Tensor:
        B = feat.shape[0]
        deltas = self.reg(feat).permute(0, 2, 3, 1).reshape(B, -1, 4)
        return decode_boxes(deltas, anchors)


def example():
    torch.manual_seed(0)
    model = AnchorHead().to(torch.bfloat16)
    feat = torch.randn(2, 8, 4, 4).to(torch.bfloat16)
    ys, xs = np.meshgrid(np.arange(4) * 8.0, np.arange(4) * 8.0, indexing="ij")
    ctr = np.stack([xs.ravel(), ys.ravel()], -1).repeat(3, axis=0)
    sizes = np.tile(np.array([8.0, 16.0, 32.0]), 16)[:, None]
    anchors = np.concatenate([ctr - sizes / 2, ctr + sizes / 2], axis=-1)
    return model, (feat, anchors)
