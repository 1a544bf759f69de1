import torch
import torch.nn as nn


def split_pose(extrinsics: torch.Tensor, like: torch.Tensor):
    """(B, 4, 4) object-to-camera pose -> (R, t), both in the dtype of `like`."""
    R = extrinsics[:, :3, :3].to(like.dtype)
    t = extrinsics[:, :3, 3].to(like.dtype)
    return R, t


class ObjectPoseLifter(nn.Module):
    """Places predicted object-frame keypoints in the camera frame."""

    def __init__(self, dim: int = 32, num_kpts: int = 8):
        super().__init__()
        self.num_kpts = num_kpts
        self.kpt_head = nn.Linear(dim, num_kpts * 3)

    def forward(self, obj_feats, extrinsics):
        kpts = self.kpt_head(obj_feats).view(obj_feats.shape[0], self.num_kpts, 3)
        R, t = split_pose(extrinsics, kpts)
        return kpts @ R.mT + t[:, None, :]  # lookalike: both operands cast in the helper


def example():
    model = ObjectPoseLifter().to(torch.bfloat16)
    ext = torch.eye(4).repeat(2, 1, 1)
    ext[:, 2, 3] = 3.0
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), ext)
