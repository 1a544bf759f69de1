import torch
import torch.nn as nn
import torch.nn.functional as F

PARENTS = [-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18, 19]


class HandFrameEncoder(nn.Module):
    """Builds a local coordinate frame per hand bone and embeds them."""

    def __init__(self, dim: int = 64):
        super().__init__()
        self.embed = nn.Linear(21 * 12, dim)

    def forward(self, joints):
        B = joints.shape[0]
        device = joints.device
        origins = torch.zeros(B, 21, 3, device=device)  # expect: DTL001
        rotations = torch.zeros(B, 21, 3, 3, device=device)  # expect: DTL001
        for j, p in enumerate(PARENTS):
            if p < 0:
                continue
            z_axis = F.normalize(joints[:, j] - joints[:, p], dim=-1)
            y_global = torch.tensor([0.0, 1.0, 0.0], device=device).expand_as(z_axis)  # expect: DTL001
            y_axis = F.normalize(y_global - (y_global * z_axis).sum(-1, keepdim=True) * z_axis, dim=-1)
            x_axis = torch.cross(y_axis, z_axis, dim=-1)
            origins[:, j] = joints[:, p]
            rotations[:, j] = torch.stack([x_axis, y_axis, z_axis], dim=-1)
        frames = torch.cat([origins, rotations.flatten(2)], dim=-1)
        return self.embed(frames.flatten(1))
