import math

import torch
import torch.nn as nn


class PositionEmbeddingSine(nn.Module):
    """DETR sine position embedding computed in float32 and cast to the features' dtype."""

    def __init__(self, num_pos_feats: int = 16, temperature: int = 10000):
        super().__init__()
        self.num_pos_feats, self.temperature = num_pos_feats, temperature
        self.input_proj = nn.Conv2d(8, 2 * num_pos_feats, 1)

    def forward(self, x, mask):
        not_mask = ~mask
        y_embed = not_mask.cumsum(1, dtype=torch.float32)
        x_embed = not_mask.cumsum(2, dtype=torch.float32)
        eps, scale = 1e-6, 2 * math.pi
        y_embed = y_embed / (y_embed[:, -1:, :] + eps) * scale
        x_embed = x_embed / (x_embed[:, :, -1:] + eps) * scale
        dim_t = torch.arange(self.num_pos_feats, dtype=torch.float32, device=x.device)  # lookalike
        dim_t = self.temperature ** (2 * (dim_t // 2) / self.num_pos_feats)
        pos_x = x_embed[:, :, :, None] / dim_t
        pos_y = y_embed[:, :, :, None] / dim_t
        pos_x = torch.stack((pos_x[..., 0::2].sin(), pos_x[..., 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[..., 0::2].sin(), pos_y[..., 1::2].cos()), dim=4).flatten(3)
        pos = torch.cat((pos_y, pos_x), dim=3).permute(0, 3, 1, 2).to(x.dtype)  # lookalike: cast
        return self.input_proj(x) + pos


def example():
    model = PositionEmbeddingSine().to(torch.bfloat16)
    mask = torch.zeros(2, 6, 8, dtype=torch.bool)
    mask[1, :, 6:] = True
    return model, (torch.randn(2, 8, 6, 8, dtype=torch.bfloat16), mask)
