import torch
from torch import nn


class CenterNet3DDecoder(nn.Module):
    """SMOKE-style decoding: heatmap peaks + offsets, mapped back to image pixels with trans_mats."""

    def __init__(self, in_channels: int = 32, topk: int = 10):
        super().__init__()
        self.topk = topk
        self.offset = nn.Conv2d(in_channels, 2, 1)
        self.heat = nn.Conv2d(in_channels, 1, 1)

    def forward(self, feats, trans_mats):
        B, _, H, W = feats.shape
        heat = self.heat(feats).sigmoid().flatten(1)
        offsets = self.offset(feats).flatten(2)
        scores, inds = heat.topk(self.topk, dim=1)
        ys = torch.div(inds, W, rounding_mode="floor")  # lookalike: integer indices
        xs = inds % W
        off = offsets.gather(2, inds[:, None, :].expand(-1, 2, -1)).transpose(1, 2)
        centers = torch.stack([xs, ys], dim=-1) + off
        centers_h = torch.cat([centers, torch.ones_like(centers[..., :1])], dim=-1)
        img_pts = torch.bmm(
            centers_h,
            trans_mats.transpose(1, 2),  # expect: DTL002
        )
        return img_pts[..., :2], scores


def example():
    torch.manual_seed(0)
    model = CenterNet3DDecoder().to(torch.bfloat16)
    feats = torch.randn(2, 32, 12, 16, dtype=torch.bfloat16)
    trans_mats = torch.tensor([[4.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3).clone()
    return model, (feats, trans_mats)
