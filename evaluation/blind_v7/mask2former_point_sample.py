import torch
from torch import nn
import torch.nn.functional as F


def point_sample(input: torch.Tensor, point_coords: torch.Tensor, **kwargs) -> torch.Tensor:
    """detectron2's point_sample: coords in [0, 1] x [0, 1], (N, P, 2) -> features (N, C, P)."""
    output = F.grid_sample(input, 2.0 * point_coords.unsqueeze(2) - 1.0, **kwargs)
    return output.squeeze(3)


class PointRendMaskLoss(nn.Module):
    """Mask2Former's matcher cost on a random subset of points instead of full-resolution masks."""

    def __init__(self, num_points: int = 64, dim: int = 16) -> None:
        super().__init__()
        self.num_points = num_points
        self.mask_embed = nn.Linear(dim, dim)

    def forward(self, queries: torch.Tensor, pixel_feats: torch.Tensor) -> torch.Tensor:
        mask_logits = torch.einsum("bqc,bchw->bqhw", self.mask_embed(queries), pixel_feats)
        B = mask_logits.shape[0]
        point_coords = torch.rand(B, self.num_points, 2, device=mask_logits.device)  # expect: DTL001
        point_logits = point_sample(mask_logits, point_coords, align_corners=False)
        return point_logits.sigmoid()


def example():
    torch.manual_seed(0)
    model = PointRendMaskLoss().to(torch.bfloat16)
    queries = torch.randn(2, 5, 16, dtype=torch.bfloat16)
    feats = torch.randn(2, 16, 12, 12, dtype=torch.bfloat16)
    return model, (queries, feats)
