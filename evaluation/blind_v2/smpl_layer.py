"""Minimal SMPL-style layer: pose blend shapes from predicted body pose."""

import torch
import torch.nn as nn


def batch_rodrigues(rot_vecs, epsilon: float = 1e-8):
    batch_size, device, dtype = rot_vecs.shape[0], rot_vecs.device, rot_vecs.dtype
    angle = torch.norm(rot_vecs + epsilon, dim=1, keepdim=True)
    rot_dir = rot_vecs / angle
    cos, sin = torch.cos(angle)[:, None], torch.sin(angle)[:, None]
    rx, ry, rz = torch.split(rot_dir, 1, dim=1)
    zeros = torch.zeros((batch_size, 1), dtype=dtype, device=device)
    K = torch.cat([zeros, -rz, ry, rz, zeros, -rx, -ry, rx, zeros], dim=1).view((batch_size, 3, 3))
    ident = torch.eye(3, dtype=dtype, device=device).unsqueeze(dim=0)
    return ident + sin * K + (1 - cos) * torch.bmm(K, K)


class SMPLLite(nn.Module):
    def __init__(self, num_verts: int = 20, num_joints: int = 5):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.num_joints = num_joints
        self.register_buffer("v_template", torch.randn(num_verts, 3, generator=g))
        self.register_buffer("posedirs", torch.randn((num_joints - 1) * 9, num_verts * 3, generator=g) * 1e-3)

    def forward(self, body_pose, global_orient, pose=None):
        """body_pose: (B, (J-1)*3) and global_orient: (B, 3) predicted axis-angle."""
        B = body_pose.shape[0]
        if pose is None:
            pose = torch.cat([global_orient, body_pose], dim=1)
        rot_mats = batch_rodrigues(pose.view(-1, 3)).view(B, -1, 3, 3)
        ident = torch.eye(3, dtype=pose.dtype, device=pose.device)
        pose_feature = (rot_mats[:, 1:] - ident).view(B, -1)
        pose_offsets = torch.matmul(pose_feature, self.posedirs).view(B, -1, 3)
        verts = self.v_template + pose_offsets
        return verts @ rot_mats[:, 0].transpose(1, 2)


def example():
    layer = SMPLLite().to(torch.bfloat16)
    body_pose = torch.randn(2, 12, dtype=torch.bfloat16) * 0.2
    global_orient = torch.randn(2, 3, dtype=torch.bfloat16) * 0.2
    return layer, (body_pose, global_orient)
