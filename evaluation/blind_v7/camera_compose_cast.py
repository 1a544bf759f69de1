import torch
from torch import nn


class SparseViewProjector(nn.Module):
    """Project predicted 3D keypoints into each view: P = K [R | t] is composed from cameras only, then cast."""

    def __init__(self, feat_dim: int = 32, n_kpts: int = 8) -> None:
        super().__init__()
        self.n_kpts = n_kpts
        self.kpt_head = nn.Linear(feat_dim, n_kpts * 3)

    def forward(self, feat: torch.Tensor, K: torch.Tensor, R: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        B = feat.shape[0]
        kpts = self.kpt_head(feat).view(B, self.n_kpts, 3)
        kpts_h = torch.cat([kpts, torch.ones_like(kpts[..., :1])], dim=-1)  # lookalike: *_like factory
        Rt = torch.cat([R, t[..., None]], dim=-1)  # lookalike: camera-only cat
        P = K @ Rt  # lookalike: camera-only product (K @ Rt)
        uvw = kpts_h @ P.to(kpts_h.dtype).transpose(-1, -2)  # lookalike: camera already cast
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-4)


def example():
    torch.manual_seed(0)
    model = SparseViewProjector().to(torch.bfloat16)
    K = torch.tensor([[[80.0, 0, 32], [0, 80.0, 24], [0, 0, 1]]]).repeat(2, 1, 1)
    R = torch.eye(3).repeat(2, 1, 1)
    t = torch.tensor([[0.0, 0.0, 3.0], [0.1, 0.0, 2.5]])
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), K, R, t)
