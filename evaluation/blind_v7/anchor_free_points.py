import torch
from torch import nn


class AnchorFreeBoxDecoder(nn.Module):
    """FCOS/YOLOX-style regression decode: per-pixel (l, t, r, b) distances around cell centres."""

    def __init__(self, in_channels: int = 32, stride: int = 8) -> None:
        super().__init__()
        self.stride = stride
        self.reg = nn.Conv2d(in_channels, 4, 3, padding=1)
        self.cls = nn.Conv2d(in_channels, 1, 3, padding=1)

    def forward(self, feat: torch.Tensor) -> torch.Tensor:
        B, _, H, W = feat.shape
        ltrb = self.reg(feat).relu().permute(0, 2, 3, 1) * self.stride
        shift_x = (torch.arange(W, device=feat.device) + 0.5) * self.stride  # expect: DTL001
        shift_y = (torch.arange(H, device=feat.device) + 0.5) * self.stride  # expect: DTL001
        yy, xx = torch.meshgrid(shift_y, shift_x, indexing="ij")
        centers = torch.stack([xx, yy], dim=-1)[None]
        boxes = torch.cat([centers - ltrb[..., :2], centers + ltrb[..., 2:]], dim=-1)
        scores = self.cls(feat).sigmoid().permute(0, 2, 3, 1)
        return torch.cat([boxes, scores], dim=-1).view(B, -1, 5)


def example():
    torch.manual_seed(0)
    model = AnchorFreeBoxDecoder().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 10, 12, dtype=torch.bfloat16),)
