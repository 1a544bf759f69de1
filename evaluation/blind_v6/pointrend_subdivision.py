"""PointRend-style mask refinement: re-predict logits at sampled points with a point head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def point_sample(input: torch.Tensor, point_coords: torch.Tensor, **kwargs) -> torch.Tensor:
    """Sample `input` at normalized [0, 1] point coordinates (detectron2's helper)."""
    add_dim = point_coords.dim() == 3
    if add_dim:
        point_coords = point_coords.unsqueeze(2)
    output = F.grid_sample(input, 2.0 * point_coords - 1.0, **kwargs)
    return output.squeeze(3) if add_dim else output


class PointRendMaskHead(nn.Module):
    def __init__(self, in_ch: int = 16, num_classes: int = 3, num_points: int = 28):
        super().__init__()
        self.num_points = num_points
        self.coarse = nn.Conv2d(in_ch, num_classes, 1)
        self.point_head = nn.Conv1d(in_ch + num_classes, num_classes, 1)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        coarse_logits = self.coarse(features)
        B = features.shape[0]
        point_coords = torch.rand(B, self.num_points, 2, device=features.device)  # expect: DTL001
        fine = point_sample(features, point_coords, align_corners=False)
        coarse = point_sample(coarse_logits, point_coords, align_corners=False)
        return self.point_head(torch.cat([coarse, fine], dim=1))


def example():
    head = PointRendMaskHead().to(torch.bfloat16)
    return head, (torch.randn(2, 16, 14, 14, dtype=torch.bfloat16),)
