import torch
import torch.nn as nn


class KeypointBackProjector(nn.Module):
    """Lifts predicted 2D keypoints to 3D using the inverse intrinsics and a predicted depth."""

    def __init__(self, dim: int = 256, num_kp: int = 21):
        super().__init__()
        self.num_kp = num_kp
        self.uv = nn.Linear(dim, num_kp * 2)
        self.depth = nn.Linear(dim, num_kp)

    def forward(self, feat, K):
        uv = self.uv(feat).view(-1, self.num_kp, 2)
        uv1 = torch.cat([uv, torch.ones_like(uv[..., :1])], dim=-1)
        K_inv = torch.inverse(K)
        rays = torch.bmm(K_inv, uv1.transpose(1, 2)).transpose(1, 2)  # expect: DTL002
        return rays * self.depth(feat).unsqueeze(-1)

    def rays_cast(self, feat, K):
        uv = self.uv(feat).view(-1, self.num_kp, 2)
        uv1 = torch.cat([uv, torch.ones_like(uv[..., :1])], dim=-1)
        K_inv = torch.linalg.inv(K).to(uv1.dtype)  # lookalike: cast placed after linalg.inv
        return torch.bmm(K_inv, uv1.transpose(1, 2)).transpose(1, 2)
