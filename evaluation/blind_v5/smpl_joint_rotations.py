import torch
from torch import nn


def batch_rodrigues(rot_vecs, epsilon: float = 1e-8):
    """smplx: axis-angle (N, 3) to rotation matrices (N, 3, 3)."""
    batch_size = rot_vecs.shape[0]
    device, dtype = rot_vecs.device, rot_vecs.dtype
    angle = torch.norm(rot_vecs + epsilon, dim=1, keepdim=True)
    rot_dir = rot_vecs / angle
    cos = torch.unsqueeze(torch.cos(angle), dim=1)
    sin = torch.unsqueeze(torch.sin(angle), dim=1)
    rx, ry, rz = torch.split(rot_dir, 1, dim=1)
    zeros = torch.zeros((batch_size, 1), dtype=dtype, device=device)
    K = torch.cat([zeros, -rz, ry, rz, zeros, -rx, -ry, rx, zeros], dim=1).view((batch_size, 3, 3))
    ident = torch.eye(3, dtype=dtype, device=device).unsqueeze(dim=0)
    return ident + sin * K + (1 - cos) * torch.bmm(K, K)  # lookalike: K is a skew matrix of activations


class JointRotationHead(nn.Module):
    """Shapes the rest joints with betas, then rotates each by the body pose (SMPL-like)."""

    def __init__(self, num_joints: int = 24, num_betas: int = 10):
        super().__init__()
        self.register_buffer("rest_joints", torch.randn(num_joints, 3) * 0.1)
        self.shape_dirs = nn.Linear(num_betas, num_joints * 3)

    def forward(self, betas, pose):
        B = betas.shape[0]
        J = self.rest_joints + self.shape_dirs(betas).view(B, -1, 3)
        rot_mats = batch_rodrigues(pose.view(-1, 3)).view(B, -1, 3, 3)  # lookalike: body pose, not a camera
        posed = torch.matmul(rot_mats, J.unsqueeze(-1)).squeeze(-1)
        return posed, rot_mats


def example():
    torch.manual_seed(0)
    model = JointRotationHead().to(torch.bfloat16)
    betas = torch.randn(2, 10, dtype=torch.bfloat16)
    pose = (torch.randn(2, 72) * 0.2).to(torch.bfloat16)
    return model, (betas, pose)
