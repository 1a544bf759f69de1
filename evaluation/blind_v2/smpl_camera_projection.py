"""2D keypoint reprojection for a body-mesh regressor.

The SMPL joints are predicted in the model's canonical frame; the dataset provides the
world-to-camera rotation ``R`` (B, 3, 3), translation ``t`` (B, 3) and intrinsics ``K``.
"""

import torch
import torch.nn as nn


def perspective_projection(joints, R, t, K):
    """joints: (B, J, 3) -> pixel coordinates (B, J, 2)."""
    joints_cam = joints @ R.mT + t[:, None, :]  # expect: DTL002
    joints_img = torch.einsum("bij,bnj->bni", K, joints_cam)  # expect: DTL002
    return joints_img[..., :2] / joints_img[..., 2:].clamp(min=1e-3)


class KeypointReprojectionLoss(nn.Module):
    def __init__(self, conf_threshold: float = 0.1):
        super().__init__()
        self.conf_threshold = conf_threshold

    def forward(self, pred_joints, gt_keypoints_2d, R, t, K):
        """gt_keypoints_2d: (B, J, 3) with the detector confidence in the last channel."""
        pred_2d = perspective_projection(pred_joints, R, t, K)
        conf = gt_keypoints_2d[..., 2:]
        conf = conf * (conf > self.conf_threshold)
        return (conf * (pred_2d - gt_keypoints_2d[..., :2]).abs()).mean()


def example():
    B, J = 2, 24
    pred_joints = torch.randn(B, J, 3, dtype=torch.bfloat16) * 0.3
    gt = torch.cat([torch.rand(B, J, 2) * 224, torch.rand(B, J, 1)], dim=-1).to(torch.bfloat16)
    R = torch.eye(3).expand(B, 3, 3)
    t = torch.tensor([0.0, 0.2, 5.0]).expand(B, 3)
    K = torch.tensor([[500.0, 0.0, 112.0], [0.0, 500.0, 112.0], [0.0, 0.0, 1.0]]).expand(B, 3, 3)
    return KeypointReprojectionLoss(), (pred_joints, gt, R, t, K)
