"""A trimmed SMPL layer: shape blend shapes, joint regression and rigid rotations."""
import numpy as np
import torch
import torch.nn as nn


def batch_rodrigues(rot_vecs: torch.Tensor, epsilon: float = 1e-8) -> torch.Tensor:
    batch_size = rot_vecs.shape[0]
    device, dtype = rot_vecs.device, rot_vecs.dtype
    angle = torch.norm(rot_vecs + epsilon, dim=1, keepdim=True)
    rot_dir = rot_vecs / angle
    cos = torch.unsqueeze(torch.cos(angle), dim=1)
    sin = torch.unsqueeze(torch.sin(angle), dim=1)
    rx, ry, rz = torch.split(rot_dir, 1, dim=1)
    zeros = torch.zeros((batch_size, 1), dtype=dtype, device=device)  # lookalike: dtype given
    K = torch.cat([zeros, -rz, ry, rz, zeros, -rx, -ry, rx, zeros], dim=1).view((batch_size, 3, 3))
    ident = torch.eye(3, dtype=dtype, device=device).unsqueeze(dim=0)  # lookalike: dtype given
    return ident + sin * K + (1 - cos) * torch.bmm(K, K)


class SMPLLite(nn.Module):
    def __init__(self, num_verts: int = 200, num_joints: int = 24, num_betas: int = 10):
        super().__init__()
        rng = np.random.default_rng(0)
        self.register_buffer("v_template", torch.tensor(rng.normal(size=(num_verts, 3)), dtype=torch.float32))
        self.register_buffer("shapedirs", torch.tensor(rng.normal(size=(num_verts, 3, num_betas)) * 0.01, dtype=torch.float32))
        J = rng.random((num_joints, num_verts))
        self.J_regressor = torch.tensor(J / J.sum(1, keepdims=True), dtype=torch.float32)  # expect: DTL005
        self.num_joints = num_joints

    def forward(self, betas: torch.Tensor, pose: torch.Tensor):
        B = betas.shape[0]
        v_shaped = self.v_template + torch.einsum("bl,mkl->bmk", betas, self.shapedirs)
        joints = torch.einsum("bik,ji->bjk", v_shaped, self.J_regressor)
        rot_mats = batch_rodrigues(pose.view(-1, 3)).view(B, -1, 3, 3)  # lookalike: body pose is an activation, not a camera
        rel = torch.matmul(rot_mats, joints.unsqueeze(-1)).squeeze(-1)
        return v_shaped, rel


def example():
    smpl = SMPLLite().to(torch.bfloat16)
    betas = torch.randn(2, 10, dtype=torch.bfloat16)
    pose = (torch.randn(2, 24 * 3) * 0.2).to(torch.bfloat16)  # regressed by the network
    return smpl, (betas, pose)
