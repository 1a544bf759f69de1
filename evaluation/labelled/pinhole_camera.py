import torch
from torch import Tensor


class PinholeCamera:
    """Plain helper object (not an nn.Module) holding one camera."""

    def __init__(self, fx: float, fy: float, cx: float, cy: float, width: int, height: int):
        self.K = torch.tensor([[fx, 0.0, cx], [0.0, fy, cy], [0.0, 0.0, 1.0]])  # lookalike: not an nn.Module
        self.size = (width, height)

    def project(self, pts_cam: Tensor) -> Tensor:
        uvw = pts_cam @ self.K.T  # expect: DTL002
        return uvw[..., :2] / uvw[..., 2:].clamp(min=1e-6)

    def unproject(self, uv1: Tensor, depth: Tensor) -> Tensor:
        rays = torch.mm(uv1, torch.inverse(self.K).t())  # expect: DTL002
        return rays * depth[:, None]

    def in_frame(self, uv: Tensor) -> Tensor:
        w, h = self.size
        return (uv[..., 0] >= 0) & (uv[..., 0] < w) & (uv[..., 1] >= 0) & (uv[..., 1] < h)
