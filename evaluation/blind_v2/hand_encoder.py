"""Hand encoder: per-joint local coordinate frames for a 21-joint hand skeleton.

Joint 0 is the wrist; each finger is a chain of four joints.  The encoder builds an
origin and a rotation per bone (22 entries: a root frame plus one per joint) and
regresses a per-joint embedding from the joints expressed in their local frames.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

# parent index of each of the 21 joints (MANO ordering, wrist = 0)
PARENTS = [-1, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 13, 14, 15, 0, 17, 18, 19]
TIP_VERTS = [745, 317, 444, 556, 673]


def estimate_joints(vertices, regressor_idx):
    """Average groups of mesh vertices into 21 joint positions.

    vertices: (B, V, 3); regressor_idx: list of 21 index lists.
    """
    B, device = vertices.shape[0], vertices.device
    joints = torch.zeros(B, 21, 3, device=device)  # expect: DTL001
    for j, idx in enumerate(regressor_idx):
        joints[:, j] = vertices[:, idx].mean(dim=1)
    return joints


class HandEncoder(nn.Module):
    def __init__(self, embed_dim: int = 64):
        super().__init__()
        self.embed = nn.Linear(3 + 9, embed_dim)

    def local_frames(self, joints):
        """joints: (B, 21, 3) -> origins (B, 22, 3), rotations (B, 22, 3, 3)."""
        B, device = joints.shape[0], joints.device
        origins = torch.zeros(B, 22, 3, device=device)  # expect: DTL001
        rotations = torch.zeros(B, 22, 3, 3, device=device)  # expect: DTL001
        origins[:, 1:] = joints

        parents = torch.tensor([0] + PARENTS[1:], device=device)
        z_axis = F.normalize(joints - joints[:, parents], dim=-1, eps=1e-6)
        z_axis[:, 0] = F.normalize(joints[:, 9] - joints[:, 0], dim=-1)
        y_global = torch.tensor([0, 1, 0], device=device).expand_as(z_axis)  # expect: DTL001
        x_axis = F.normalize(torch.cross(y_global, z_axis, dim=-1), dim=-1, eps=1e-6)
        y_axis = torch.cross(z_axis, x_axis, dim=-1)
        rotations[:, 1:] = torch.stack([x_axis, y_axis, z_axis], dim=-1)
        rotations[:, 0] = rotations[:, 1]
        return origins, rotations

    def forward(self, joints):
        origins, rotations = self.local_frames(joints)
        rel = joints - origins[:, :21]
        local = torch.einsum("bjik,bji->bjk", rotations[:, 1:], rel)
        feats = torch.cat([local, rotations[:, 1:].flatten(2)], dim=-1)
        return self.embed(feats)


class MeshToHandEmbedding(nn.Module):
    def __init__(self, embed_dim: int = 64):
        super().__init__()
        self.encoder = HandEncoder(embed_dim)
        self.regressor_idx = [[i, i + 1, i + 2] for i in range(0, 63, 3)]

    def forward(self, vertices):
        joints = estimate_joints(vertices, self.regressor_idx)
        return self.encoder(joints)


def example():
    model = MeshToHandEmbedding().to(torch.bfloat16)
    vertices = torch.randn(2, 64, 3, dtype=torch.bfloat16)
    return model, (vertices,)
