import torch
from torch import nn


class HeatmapKeypointHead(nn.Module):
    """SimpleBaseline-style pose head: deconv heatmaps, arg-max decode with a quarter-pixel shift."""

    def __init__(self, in_channels: int = 32, num_joints: int = 5) -> None:
        super().__init__()
        self.deconv = nn.Sequential(
            nn.ConvTranspose2d(in_channels, 32, 4, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU()
        )
        self.final = nn.Conv2d(32, num_joints, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        heat = self.final(self.deconv(x))
        B, J, H, W = heat.shape
        peak = heat.flatten(2).max(dim=2)
        idx = peak.indices
        preds = torch.zeros(B, J, 3, device=heat.device)  # expect: DTL001
        preds[..., 0] = (idx % W).to(preds.dtype)
        preds[..., 1] = torch.div(idx, W, rounding_mode="floor").to(preds.dtype)
        preds[..., 2] = peak.values
        px = (idx % W).clamp(1, W - 2)
        py = torch.div(idx, W, rounding_mode="floor").clamp(1, H - 2)
        b = torch.arange(B, device=heat.device)[:, None]
        j = torch.arange(J, device=heat.device)[None, :]
        dx = heat[b, j, py, px + 1] - heat[b, j, py, px - 1]
        dy = heat[b, j, py + 1, px] - heat[b, j, py - 1, px]
        preds[..., :2] += 0.25 * torch.stack([dx.sign(), dy.sign()], dim=-1)
        return preds


def example():
    torch.manual_seed(0)
    model = HeatmapKeypointHead().eval().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 8, 8, dtype=torch.bfloat16),)
