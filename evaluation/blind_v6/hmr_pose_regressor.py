"""HMR iterative regressor: body pose and weak-perspective camera are network outputs, not cameras."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def rot6d_to_rotmat(x: torch.Tensor) -> torch.Tensor:
    x = x.reshape(-1, 3, 2)
    b1 = F.normalize(x[:, :, 0], dim=1)
    b2 = F.normalize(x[:, :, 1] - (b1 * x[:, :, 1]).sum(1, keepdim=True) * b1, dim=1)
    b3 = torch.cross(b1, b2, dim=1)
    return torch.stack((b1, b2, b3), dim=-1)


class HMRRegressor(nn.Module):
    def __init__(self, feat_dim: int = 64, num_joints: int = 6, n_iter: int = 2):
        super().__init__()
        self.num_joints, self.n_iter = num_joints, n_iter
        npose = num_joints * 6
        self.fc = nn.Sequential(nn.Linear(feat_dim + npose + 3, 64), nn.ReLU())
        self.decpose = nn.Linear(64, npose)
        self.deccam = nn.Linear(64, 3)
        self.register_buffer("init_pose", torch.tensor([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]).repeat(num_joints)[None])
        self.register_buffer("init_cam", torch.tensor([[0.9, 0.0, 0.0]]))
        self.register_buffer("joints_template", torch.randn(num_joints, 3))

    def forward(self, feat: torch.Tensor):
        B = feat.shape[0]
        pred_pose = self.init_pose.expand(B, -1)
        pred_cam = self.init_cam.expand(B, -1)
        for _ in range(self.n_iter):
            xc = self.fc(torch.cat([feat, pred_pose, pred_cam], dim=1))
            pred_pose = self.decpose(xc) + pred_pose
            pred_cam = self.deccam(xc) + pred_cam
        pose = pred_pose  # lookalike: a regressed body pose is an activation
        rotmat = rot6d_to_rotmat(pose).view(B, self.num_joints, 3, 3)
        joints = torch.matmul(rotmat, self.joints_template[None, :, :, None]).squeeze(-1)
        joints_2d = pred_cam[:, None, 1:] + pred_cam[:, None, :1] * joints[..., :2]  # lookalike: weak-perspective camera from the network
        return rotmat, joints_2d


def example():
    m = HMRRegressor().to(torch.bfloat16)
    return m, (torch.randn(2, 64, dtype=torch.bfloat16),)
