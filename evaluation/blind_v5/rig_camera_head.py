import torch
from torch import nn


class RigCameraHead(nn.Module):
    """Fixed-rig head: the calibration is registered as buffers, so module.to() converts it."""

    def __init__(self, K, cam_to_rig, dim: int = 32):
        super().__init__()
        self.register_buffer("K", torch.as_tensor(K, dtype=torch.float32), persistent=False)
        self.register_buffer("cam_to_rig", torch.as_tensor(cam_to_rig, dtype=torch.float32), persistent=False)
        self.point_head = nn.Linear(dim, 3)

    def forward(self, feats):
        pts = self.point_head(feats)
        pts = torch.cat([pts[..., :2], pts[..., 2:].exp() + 1.0], dim=-1)
        pts_rig = pts @ self.cam_to_rig[:3, :3].T + self.cam_to_rig[:3, 3]  # lookalike: registered buffers
        uvw = pts @ self.K.T  # lookalike: registered buffer
        return pts_rig, uvw[..., :2] / uvw[..., 2:]


def example():
    torch.manual_seed(0)
    K = [[200.0, 0.0, 96.0], [0.0, 200.0, 64.0], [0.0, 0.0, 1.0]]
    cam_to_rig = torch.eye(4)
    cam_to_rig[:3, 3] = torch.tensor([0.1, 0.0, 1.5])
    model = RigCameraHead(K, cam_to_rig).to(torch.bfloat16)
    feats = torch.randn(2, 10, 32, dtype=torch.bfloat16)
    return model, (feats,)
