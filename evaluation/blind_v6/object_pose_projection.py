"""6-DoF object pose head: predicted canonical keypoints moved by the annotated pose and projected."""
import torch
import torch.nn as nn


class KeypointProjector(nn.Module):
    def __init__(self, feat_dim: int = 64, num_kpts: int = 8):
        super().__init__()
        self.num_kpts = num_kpts
        self.kpt_head = nn.Sequential(nn.Linear(feat_dim, feat_dim), nn.ReLU(), nn.Linear(feat_dim, num_kpts * 3))

    def forward(self, obj_feat: torch.Tensor, R: torch.Tensor, t: torch.Tensor, K: torch.Tensor):
        B = obj_feat.shape[0]
        kpts = self.kpt_head(obj_feat).view(B, self.num_kpts, 3)
        Rt = torch.cat([R, t[..., None]], dim=-1)  # lookalike: built only from camera values
        P = K @ Rt  # lookalike: camera-only product
        kpts_cam = (
            kpts @ R.transpose(1, 2)  # expect: DTL002
            + t[:, None, :]  # expect: DTL002
        )
        kpts_h = torch.cat([kpts, torch.ones_like(kpts[..., :1])], dim=-1)
        uvw = kpts_h @ P.transpose(1, 2)  # expect: DTL002
        uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-4)
        return kpts_cam, uv


def example():
    m = KeypointProjector().to(torch.bfloat16)
    B = 2
    feat = torch.randn(B, 64, dtype=torch.bfloat16)
    R = torch.eye(3).expand(B, 3, 3).contiguous()
    t = torch.tensor([0.0, 0.0, 1.5]).expand(B, 3).contiguous()
    K = torch.tensor([[500.0, 0.0, 320.0], [0.0, 500.0, 240.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    return m, (feat, R, t, K)
