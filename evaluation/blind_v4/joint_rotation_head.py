import torch
import torch.nn as nn


def axis_angle_to_matrix(axis_angle):
    """Rodrigues' formula for a batch of axis-angle vectors (M, 3)."""
    angle = axis_angle.norm(dim=-1, keepdim=True).clamp(min=1e-8)
    axis = axis_angle / angle
    x, y, z = axis.unbind(-1)
    zero = torch.zeros_like(x)
    skew = torch.stack([zero, -z, y, z, zero, -x, -y, x, zero], dim=-1).view(-1, 3, 3)
    eye = torch.eye(3, device=axis_angle.device).expand_as(skew)  # expect: DTL001
    s, c = angle.sin()[..., None], angle.cos()[..., None]
    return eye + s * skew + (1 - c) * (skew @ skew)


class JointRotationHead(nn.Module):
    def __init__(self, dim: int = 32, num_joints: int = 16):
        super().__init__()
        self.head = nn.Linear(dim, num_joints * 3)

    def forward(self, feats):
        B = feats.shape[0]
        aa = self.head(feats).view(-1, 3)
        rot = axis_angle_to_matrix(aa)
        return rot.view(B, -1, 3, 3)


def example():
    model = JointRotationHead().to(torch.bfloat16)
    return model, (torch.randn(3, 32, dtype=torch.bfloat16),)
