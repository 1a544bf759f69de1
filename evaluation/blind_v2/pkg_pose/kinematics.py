"""Forward kinematics helpers for articulated body models (SMPL-like)."""

import torch
import torch.nn.functional as F


def batch_rodrigues(rot_vecs, epsilon: float = 1e-8):
    """Axis-angle (N, 3) -> rotation matrices (N, 3, 3)."""
    batch_size, device, dtype = rot_vecs.shape[0], rot_vecs.device, rot_vecs.dtype
    angle = torch.norm(rot_vecs + epsilon, dim=1, keepdim=True)
    rot_dir = rot_vecs / angle
    cos = torch.unsqueeze(torch.cos(angle), dim=1)
    sin = torch.unsqueeze(torch.sin(angle), dim=1)
    rx, ry, rz = torch.split(rot_dir, 1, dim=1)
    zeros = torch.zeros((batch_size, 1), dtype=dtype, device=device)
    K = torch.cat([zeros, -rz, ry, rz, zeros, -rx, -ry, rx, zeros], dim=1).view((batch_size, 3, 3))
    ident = torch.eye(3, dtype=dtype, device=device).unsqueeze(dim=0)
    return ident + sin * K + (1 - cos) * torch.bmm(K, K)


def transform_mat(R, t):
    """R: (N, 3, 3), t: (N, 3, 1) -> homogeneous (N, 4, 4)."""
    bottom = torch.tensor([0.0, 0.0, 0.0, 1.0], device=R.device).expand(R.shape[0], 1, 4)  # expect: DTL001
    return torch.cat([torch.cat([R, t], dim=2), bottom], dim=1)


def batch_rigid_transform(rot_mats, joints, parents):
    """rot_mats: (B, J, 3, 3), joints: (B, J, 3) -> posed joints (B, J, 3), transforms (B, J, 4, 4)."""
    B, J = joints.shape[:2]
    joints = joints.unsqueeze(-1)
    rel_joints = joints.clone()
    rel_joints[:, 1:] -= joints[:, parents[1:]]
    transforms_mat = transform_mat(rot_mats.reshape(-1, 3, 3), rel_joints.reshape(-1, 3, 1)).reshape(B, J, 4, 4)
    chain = [transforms_mat[:, 0]]
    for i in range(1, J):
        chain.append(torch.matmul(chain[parents[i]], transforms_mat[:, i]))
    transforms = torch.stack(chain, dim=1)
    posed_joints = transforms[:, :, :3, 3]
    joints_h = F.pad(joints, [0, 0, 0, 1])
    rel_transforms = transforms - F.pad(torch.matmul(transforms, joints_h), [3, 0, 0, 0, 0, 0, 0, 0])
    return posed_joints, rel_transforms


def example():
    parents = [-1, 0, 1, 2, 0, 4]
    rot_vecs = torch.randn(2 * 6, 3, dtype=torch.bfloat16) * 0.3
    joints = torch.randn(2, 6, 3, dtype=torch.bfloat16)

    def pose(rot_vecs, joints):
        rot_mats = batch_rodrigues(rot_vecs).view(2, 6, 3, 3)
        return batch_rigid_transform(rot_mats, joints, parents)

    return pose, (rot_vecs, joints)
