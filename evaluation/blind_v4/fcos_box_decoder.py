import torch
import torch.nn as nn
import torch.nn.functional as F


class FCOSBoxDecoder(nn.Module):
    """Decodes (l, t, r, b) distances around integer anchor points of one FPN level."""

    def __init__(self, in_ch: int = 32, stride: int = 8):
        super().__init__()
        self.stride = stride
        self.reg = nn.Conv2d(in_ch, 4, 3, padding=1)

    def forward(self, feat):
        B, _, H, W = feat.shape
        xs = torch.arange(W, device=feat.device) * self.stride + self.stride // 2  # lookalike: int64
        ys = torch.arange(H, device=feat.device) * self.stride + self.stride // 2  # lookalike: int64
        yy, xx = torch.meshgrid(ys, xs, indexing="ij")
        points = torch.stack([xx.reshape(-1), yy.reshape(-1)], dim=-1)
        ltrb = F.relu(self.reg(feat)).flatten(2).transpose(1, 2) * self.stride
        return torch.cat([points - ltrb[..., :2], points + ltrb[..., 2:]], dim=-1)


def example():
    model = FCOSBoxDecoder().to(torch.bfloat16)
    return model, (torch.randn(2, 32, 6, 8, dtype=torch.bfloat16),)
