"""A small articulated body model: shape blend shapes, pose, skinning and 2D projection."""

import torch
import torch.nn as nn

from pkg_pose.kinematics import batch_rigid_transform, batch_rodrigues
from pkg_pose.skinning import linear_blend_skinning

PARENTS = [-1, 0, 1, 2, 0, 4]


class TinyBodyModel(nn.Module):
    def __init__(self, num_verts: int = 30, num_joints: int = 6, num_betas: int = 4):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.register_buffer("v_template", torch.randn(num_verts, 3, generator=g))
        self.register_buffer("shapedirs", torch.randn(num_verts, 3, num_betas, generator=g) * 0.01)
        self.register_buffer("J_regressor", torch.softmax(torch.randn(num_joints, num_verts, generator=g), -1))
        self.register_buffer("lbs_weights", torch.softmax(torch.randn(num_verts, num_joints, generator=g), -1))
        self.num_joints = num_joints

    def forward(self, betas, body_pose, global_orient, transl, K):
        B = betas.shape[0]
        v_shaped = self.v_template + torch.einsum("bl,vcl->bvc", betas, self.shapedirs)
        joints = torch.einsum("jv,bvc->bjc", self.J_regressor, v_shaped)
        full_pose = torch.cat([global_orient, body_pose], dim=1)
        rot_mats = batch_rodrigues(full_pose.view(-1, 3)).view(B, self.num_joints, 3, 3)
        posed_joints, transforms = batch_rigid_transform(rot_mats, joints, PARENTS)
        vertices = linear_blend_skinning(v_shaped, self.lbs_weights, transforms)
        vertices = vertices + transl[:, None]
        joints_2d = (posed_joints + transl[:, None]) @ K.transpose(1, 2)  # expect: DTL002
        return vertices, joints_2d[..., :2] / joints_2d[..., 2:].clamp(min=1e-3)


def example():
    B = 2
    model = TinyBodyModel().to(torch.bfloat16)
    betas = torch.randn(B, 4, dtype=torch.bfloat16)
    body_pose = torch.randn(B, 15, dtype=torch.bfloat16) * 0.2
    global_orient = torch.zeros(B, 3, dtype=torch.bfloat16)
    transl = torch.tensor([[0.0, 0.0, 5.0]] * B, dtype=torch.bfloat16)
    K = torch.tensor([[200.0, 0.0, 64.0], [0.0, 200.0, 64.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    return model, (betas, body_pose, global_orient, transl, K)
