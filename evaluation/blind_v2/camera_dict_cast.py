"""Reprojects predicted scene flow with the batch calibration, casting it to the model dtype."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class FlowReprojection(nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.flow = nn.Linear(dim, 3)

    def forward(self, batch):
        points = batch["points"]
        intrinsics = batch["intrinsics"].to(points.dtype)
        extrinsics = batch["extrinsics"].to(dtype=points.dtype)
        moved = points + self.flow(batch["point_feats"])
        cam = (F.pad(moved, [0, 1], value=1.0) @ extrinsics.transpose(1, 2))[..., :3]
        uvw = cam @ intrinsics.transpose(1, 2)
        return uvw[..., :2] / (uvw[..., 2:].abs() + 1e-3)


def example():
    B, N = 2, 12
    batch = {
        "points": torch.randn(B, N, 3, dtype=torch.bfloat16),
        "point_feats": torch.randn(B, N, 8, dtype=torch.bfloat16),
        "intrinsics": torch.tensor([[50.0, 0.0, 16.0], [0.0, 50.0, 16.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3),
        "extrinsics": torch.eye(4, dtype=torch.float64).expand(B, 4, 4),
    }
    return FlowReprojection().to(torch.bfloat16), (batch,)
