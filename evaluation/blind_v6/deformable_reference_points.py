"""Deformable-DETR encoder reference points, made in the dtype of the valid ratios."""
from typing import List, Tuple

import torch
import torch.nn as nn


class DeformableEncoderRefs(nn.Module):
    def __init__(self, dim: int = 32, n_levels: int = 2):
        super().__init__()
        self.n_levels = n_levels
        self.offsets = nn.Linear(dim, n_levels * 2)

    @staticmethod
    def get_reference_points(spatial_shapes: List[Tuple[int, int]], valid_ratios: torch.Tensor, device) -> torch.Tensor:
        reference_points_list = []
        for lvl, (H_, W_) in enumerate(spatial_shapes):
            ref_y, ref_x = torch.meshgrid(
                torch.linspace(0.5, H_ - 0.5, H_, dtype=valid_ratios.dtype, device=device),  # lookalike: dtype given
                torch.linspace(0.5, W_ - 0.5, W_, dtype=valid_ratios.dtype, device=device),
                indexing="ij",
            )
            ref_y = ref_y.reshape(-1)[None] / (valid_ratios[:, None, lvl, 1] * H_)
            ref_x = ref_x.reshape(-1)[None] / (valid_ratios[:, None, lvl, 0] * W_)
            reference_points_list.append(torch.stack((ref_x, ref_y), -1))
        reference_points = torch.cat(reference_points_list, 1)
        return reference_points[:, :, None] * valid_ratios[:, None]

    def forward(self, src_flatten: torch.Tensor, spatial_shapes: List[Tuple[int, int]], valid_ratios: torch.Tensor) -> torch.Tensor:
        refs = self.get_reference_points(spatial_shapes, valid_ratios, src_flatten.device)
        off = self.offsets(src_flatten).view(*src_flatten.shape[:2], self.n_levels, 2)
        return refs + 0.05 * off.tanh()


def example():
    m = DeformableEncoderRefs().to(torch.bfloat16)
    shapes = [(4, 4), (2, 2)]
    src = torch.randn(2, 20, 32, dtype=torch.bfloat16)
    ratios = torch.ones(2, 2, 2, dtype=torch.bfloat16)
    return m, (src, shapes, ratios)
