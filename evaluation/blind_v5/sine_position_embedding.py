import math

import torch
from torch import nn


class SinePositionEmbedding(nn.Module):
    """DETR sine embedding of the unpadded pixels, computed in the features' dtype."""

    def __init__(self, num_pos_feats: int = 16, temperature: int = 10000):
        super().__init__()
        self.num_pos_feats, self.temperature = num_pos_feats, temperature
        self.scale = 2 * math.pi

    def forward(self, x, mask):
        not_mask = ~mask
        y_embed = not_mask.cumsum(1, dtype=x.dtype)
        x_embed = not_mask.cumsum(2, dtype=x.dtype)
        y_embed = y_embed / (y_embed[:, -1:, :] + 1e-6) * self.scale
        x_embed = x_embed / (x_embed[:, :, -1:] + 1e-6) * self.scale
        dim_t = torch.arange(self.num_pos_feats, device=x.device, dtype=x.dtype)  # lookalike: dtype given
        dim_t = self.temperature ** (2 * torch.div(dim_t, 2, rounding_mode="floor") / self.num_pos_feats)
        pos_x = x_embed[:, :, :, None] / dim_t
        pos_y = y_embed[:, :, :, None] / dim_t
        pos_x = torch.stack((pos_x[..., 0::2].sin(), pos_x[..., 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[..., 0::2].sin(), pos_y[..., 1::2].cos()), dim=4).flatten(3)
        pos = torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2)
        return x + pos


def example():
    torch.manual_seed(0)
    model = SinePositionEmbedding().to(torch.bfloat16)
    x = torch.randn(2, 32, 6, 8, dtype=torch.bfloat16)
    mask = torch.zeros(2, 6, 8, dtype=torch.bool)
    mask[1, :, 6:] = True
    return model, (x, mask)
