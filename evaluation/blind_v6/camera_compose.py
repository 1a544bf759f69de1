"""Multi-view geometry head: camera matrices composed among themselves, cast once before use."""
import torch
import torch.nn as nn


class EpipolarFeatureHead(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.point_head = nn.Linear(dim, 3)
        self.out = nn.Linear(2, dim)

    def forward(self, tokens: torch.Tensor, K: torch.Tensor, R: torch.Tensor, t: torch.Tensor,
                ref_pose: torch.Tensor, src_pose: torch.Tensor) -> torch.Tensor:
        Rt = torch.cat([R, t[..., None]], dim=-1)  # lookalike: built only from camera values
        P = K @ Rt  # lookalike: camera-only product
        rel_pose = torch.einsum("bij,bjk->bik", src_pose, torch.inverse(ref_pose))  # lookalike: composes two poses
        P = P @ rel_pose  # lookalike: camera-only product
        pts = self.point_head(tokens)
        pts_h = torch.cat([pts, torch.ones_like(pts[..., :1])], dim=-1)
        uvw = pts_h @ P.to(pts_h.dtype).transpose(1, 2)  # lookalike: camera cast to the activation dtype
        uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)
        return self.out(uv / 100.0)


def example():
    B = 2
    m = EpipolarFeatureHead().to(torch.bfloat16)
    K = torch.tensor([[100.0, 0, 50.0], [0, 100.0, 40.0], [0, 0, 1.0]]).expand(B, 3, 3)
    R = torch.eye(3).expand(B, 3, 3)
    t = torch.tensor([0.0, 0.0, 3.0]).expand(B, 3)
    ref_pose = torch.eye(4).expand(B, 4, 4)
    src_pose = torch.eye(4).expand(B, 4, 4)
    return m, (torch.randn(B, 10, 32, dtype=torch.bfloat16), K, R, t, ref_pose, src_pose)
