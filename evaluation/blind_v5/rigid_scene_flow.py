import torch
from torch import nn


class RigidSceneFlow(nn.Module):
    """Scene flow of static points from the ego pose, plus a learned residual for movers."""

    def __init__(self, feat_dim: int = 16):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(3, feat_dim), nn.ReLU(), nn.Linear(feat_dim, feat_dim))
        self.residual = nn.Linear(feat_dim, 3)

    def forward(self, points, ego_pose):
        feat = self.encoder(points)
        R = ego_pose[:, :3, :3]
        t = ego_pose[:, :3, 3]
        warped = (
            points @ R.mT  # expect: DTL002
            + t[:, None, :]  # expect: DTL002
        )
        rigid_flow = warped - points
        return rigid_flow + self.residual(feat)


def example():
    torch.manual_seed(0)
    model = RigidSceneFlow().to(torch.bfloat16)
    points = torch.randn(2, 128, 3, dtype=torch.bfloat16)
    angle = torch.tensor(0.1)
    ego_pose = torch.eye(4).repeat(2, 1, 1)
    ego_pose[:, 0, 0] = torch.cos(angle)
    ego_pose[:, 0, 1] = -torch.sin(angle)
    ego_pose[:, 1, 0] = torch.sin(angle)
    ego_pose[:, 1, 1] = torch.cos(angle)
    ego_pose[:, :3, 3] = torch.tensor([0.5, 0.0, 0.1])
    return model, (points, ego_pose)
