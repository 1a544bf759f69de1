import torch
import torch.nn as nn


class WristFrameEncoder(nn.Module):
    """Expresses predicted hand joints in a wrist frame; factories take the joints' dtype."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.joint_head = nn.Linear(dim, 21 * 3)
        self.out = nn.Linear(21 * 3, dim)

    def forward(self, feats):
        B = feats.shape[0]
        joints = self.joint_head(feats).view(B, 21, 3)
        z = joints[:, 9] - joints[:, 0]
        z = z / z.norm(dim=-1, keepdim=True).clamp(min=1e-6)
        up = torch.tensor([0, 1, 0], device=joints.device, dtype=z.dtype).expand_as(z)  # lookalike: dtype given
        x = torch.cross(up, z, dim=-1)
        x = x / x.norm(dim=-1, keepdim=True).clamp(min=1e-6)
        y = torch.cross(z, x, dim=-1)
        frame = torch.zeros(B, 3, 3, device=joints.device, dtype=joints.dtype)  # lookalike: dtype given
        frame[:, 0], frame[:, 1], frame[:, 2] = x, y, z
        local = (joints - joints[:, :1]) @ frame.transpose(1, 2)
        return self.out(local.flatten(1))


def example():
    model = WristFrameEncoder().to(torch.bfloat16)
    return model, (torch.randn(4, 32, dtype=torch.bfloat16),)
