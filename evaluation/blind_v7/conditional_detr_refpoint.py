import math

import torch
from torch import nn
import torch.nn.functional as F


def gen_sineembed_for_position(pos_tensor: torch.Tensor, d: int = 16) -> torch.Tensor:
    """Conditional-DETR sine embedding of (x, y) reference points, in float32."""
    scale = 2 * math.pi
    dim_t = torch.arange(d, dtype=torch.float32, device=pos_tensor.device)
    dim_t = 10000 ** (2 * torch.div(dim_t, 2, rounding_mode="floor") / d)
    x_embed = pos_tensor[..., 0].float() * scale
    y_embed = pos_tensor[..., 1].float() * scale
    pos_x = x_embed[..., None] / dim_t
    pos_y = y_embed[..., None] / dim_t
    pos_x = torch.stack((pos_x[..., 0::2].sin(), pos_x[..., 1::2].cos()), dim=-1).flatten(-2)
    pos_y = torch.stack((pos_y[..., 0::2].sin(), pos_y[..., 1::2].cos()), dim=-1).flatten(-2)
    return torch.cat((pos_y, pos_x), dim=-1)


class QueryPosHead(nn.Module):
    """Decoder query positions: sine embedding of the references through an MLP kept in a ModuleList."""

    def __init__(self, d_model: int = 32, num_layers: int = 2) -> None:
        super().__init__()
        dims = [d_model] * num_layers
        self.ref_point_head = nn.ModuleList(nn.Linear(a, b) for a, b in zip([d_model] + dims[:-1], dims))
        self.ref_points = nn.Linear(d_model, 2)

    def forward(self, tgt: torch.Tensor) -> torch.Tensor:
        reference = self.ref_points(tgt).sigmoid()
        query_sine = gen_sineembed_for_position(reference).type_as(tgt)  # lookalike: caller casts back with type_as
        x = query_sine
        for i, layer in enumerate(self.ref_point_head):
            x = layer(x) if i == len(self.ref_point_head) - 1 else F.relu(layer(x))
        return tgt + x


def example():
    torch.manual_seed(0)
    model = QueryPosHead().to(torch.bfloat16)
    return model, (torch.randn(2, 10, 32, dtype=torch.bfloat16),)
