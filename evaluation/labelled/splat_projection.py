import torch
import torch.nn as nn


class SplatProjection(nn.Module):
    """Projects predicted Gaussian centres; the camera is set once per scene."""

    def __init__(self, dim: int = 64):
        super().__init__()
        self.center_head = nn.Linear(dim, 3)
        self.K = None
        self.w2c = None

    def set_camera(self, K, w2c):
        self.K = K
        self.w2c = w2c

    def forward(self, latents):
        means = self.center_head(latents)
        means_h = torch.cat([means, torch.ones_like(means[..., :1])], dim=-1)  # lookalike: *_like
        cam = means_h @ self.w2c.T  # expect: DTL002
        uvw = cam[..., :3] @ self.K.T  # expect: DTL002
        return uvw[..., :2] / uvw[..., 2:3].clamp(min=1e-4), cam[..., 2]
