import torch
import torch.nn as nn
import torch.nn.functional as F


class MeshReprojectionHead(nn.Module):
    """Regresses camera-frame 3D joints and reprojects them with the batch's intrinsics."""

    def __init__(self, dim: int = 32, num_joints: int = 24):
        super().__init__()
        self.num_joints = num_joints
        self.joint_head = nn.Linear(dim, num_joints * 3)

    def forward(self, feats, batch: dict):
        B = feats.shape[0]
        j = self.joint_head(feats).view(B, self.num_joints, 3)
        joints_cam = torch.cat([j[..., :2], F.softplus(j[..., 2:]) + 2.0], dim=-1)
        proj = torch.bmm(joints_cam, batch["intrinsics"].transpose(1, 2))  # expect: DTL002
        keypoints_2d = proj[..., :2] / proj[..., 2:].clamp(min=1e-3)
        return joints_cam, keypoints_2d


def example():
    model = MeshReprojectionHead().to(torch.bfloat16)
    K = torch.tensor([[500.0, 0, 112], [0, 500.0, 112], [0, 0, 1]])
    batch = {"intrinsics": K.expand(3, 3, 3).contiguous(), "img_id": torch.arange(3)}
    return model, (torch.randn(3, 32, dtype=torch.bfloat16), batch)
