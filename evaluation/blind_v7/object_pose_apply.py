import torch
from torch import nn


class ShapeDeformer(nn.Module):
    """Category-level object pose (NOCS/SPD flavoured): deform a prior, then place it with the GT pose."""

    def __init__(self, n_pts: int = 32, feat_dim: int = 32) -> None:
        super().__init__()
        self.prior = nn.Parameter(torch.randn(n_pts, 3) * 0.1)
        self.deform = nn.Sequential(nn.Linear(feat_dim, 64), nn.ReLU(), nn.Linear(64, n_pts * 3))

    def forward(self, inst_feat: torch.Tensor, R: torch.Tensor, t: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
        B = inst_feat.shape[0]
        delta = self.deform(inst_feat).view(B, -1, 3)
        nocs = self.prior[None] + delta
        pts = nocs * scale[:, None, None]
        cam_pts = (
            torch.einsum("bij,bnj->bni", R, pts)  # expect: DTL002
            + t[:, None, :]  # expect: DTL002
        )
        return cam_pts


def example():
    torch.manual_seed(0)
    model = ShapeDeformer().to(torch.bfloat16)
    feat = torch.randn(2, 32, dtype=torch.bfloat16)
    q = torch.nn.functional.normalize(torch.randn(2, 4), dim=-1)
    w, x, y, z = q.unbind(-1)
    R = torch.stack([
        1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
        2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
        2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
    ], -1).view(2, 3, 3)
    t = torch.tensor([[0.0, 0.1, 0.8], [0.2, 0.0, 1.1]])
    scale = torch.tensor([0.3, 0.25], dtype=torch.bfloat16)
    return model, (feat, R, t, scale)
