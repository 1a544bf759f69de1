import torch
import torch.nn as nn

PARENTS = [0, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18, 19]


class HandFrameEncoder(nn.Module):
    """Encodes a hand by per-bone local frames built from predicted joints."""

    def __init__(self, hidden: int = 64):
        super().__init__()
        self.joint_head = nn.Linear(hidden, 21 * 3)
        self.frame_mlp = nn.Linear(21 * 6, hidden)

    def local_frames(self, joints):
        B = joints.shape[0]
        device = joints.device
        origins = torch.zeros(B, 21, 3, device=device)  # expect: DTL001
        for j, p in enumerate(PARENTS):
            origins[:, j] = joints[:, p]
        z_axis = joints - origins
        z_axis = z_axis / z_axis.norm(dim=-1, keepdim=True).clamp(min=1e-6)
        y_global = torch.tensor([0, 1, 0], device=device).expand_as(z_axis)  # expect: DTL001
        x_axis = torch.cross(y_global, z_axis, dim=-1)
        return torch.cat([z_axis, x_axis], dim=-1)

    def forward(self, hand_feat):
        B = hand_feat.shape[0]
        joints = self.joint_head(hand_feat).view(B, 21, 3)
        frames = self.local_frames(joints)
        return self.frame_mlp(frames.flatten(1))


def example():
    model = HandFrameEncoder().to(torch.bfloat16)
    return model, (torch.randn(4, 64, dtype=torch.bfloat16),)
