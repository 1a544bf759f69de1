import torch
import torch.nn as nn


def batch_rodrigues(rot_vecs):
    """Axis-angle (M, 3) -> rotation matrices (M, 3, 3), as in smplx.lbs."""
    angle = torch.norm(rot_vecs + 1e-8, dim=1, keepdim=True)
    rot_dir = rot_vecs / angle
    cos = torch.unsqueeze(torch.cos(angle), dim=1)
    sin = torch.unsqueeze(torch.sin(angle), dim=1)
    rx, ry, rz = torch.split(rot_dir, 1, dim=1)
    zeros = torch.zeros((rot_vecs.shape[0], 1), dtype=rot_vecs.dtype, device=rot_vecs.device)
    K = torch.cat([zeros, -rz, ry, rz, zeros, -rx, -ry, rx, zeros], dim=1).view(-1, 3, 3)
    ident = torch.eye(3, dtype=rot_vecs.dtype, device=rot_vecs.device).unsqueeze(0)
    return ident + sin * K + (1 - cos) * torch.bmm(K, K)  # lookalike: K is a skew matrix of activations


class BodyPoseHead(nn.Module):
    def __init__(self, dim: int = 32, num_joints: int = 24):
        super().__init__()
        self.pose_head = nn.Linear(dim, num_joints * 3)

    def forward(self, feats, joints_rest):
        B = feats.shape[0]
        pose = self.pose_head(feats)  # lookalike: body pose is an activation, not a camera
        rot_mats = batch_rodrigues(pose.view(-1, 3)).view(B, -1, 3, 3)
        return torch.einsum("bjik,bjk->bji", rot_mats, joints_rest)


def example():
    model = BodyPoseHead().to(torch.bfloat16)
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), torch.randn(2, 24, 3, dtype=torch.bfloat16))
