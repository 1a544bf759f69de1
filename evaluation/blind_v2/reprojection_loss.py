"""Reprojection loss of predicted camera-space keypoints for a fixed-rig dataset.

The rig calibration is loaded once from the dataset's calibration file (NumPy, float64).
"""

import numpy as np
import torch
import torch.nn as nn


class FixedRigReprojectionLoss(nn.Module):
    def __init__(self, calib=None, robust_delta: float = 4.0):
        super().__init__()
        if calib is None:
            calib = np.array([[600.0, 0.0, 320.0], [0.0, 600.0, 240.0], [0.0, 0.0, 1.0]])
        self.calib = calib
        self.huber = nn.HuberLoss(delta=robust_delta)

    def forward(self, pred_cam_points, keypoints_2d, visibility):
        """pred_cam_points: (B, J, 3) camera frame; keypoints_2d: (B, J, 2) pixels."""
        focal = torch.tensor(self.calib[[0, 1], [0, 1]], device=pred_cam_points.device)  # expect: DTL004
        center = torch.from_numpy(self.calib[:2, 2]).to(pred_cam_points.device)  # expect: DTL004
        z = pred_cam_points[..., 2:].clamp(min=1e-2)
        uv = pred_cam_points[..., :2] / z * focal + center
        vis = visibility[..., None].to(uv.dtype)
        return self.huber(uv * vis, keypoints_2d * vis)


def example():
    B, J = 2, 17
    pred = (torch.randn(B, J, 3) * 0.2 + torch.tensor([0.0, 0.0, 3.0])).to(torch.bfloat16)
    kp = (torch.rand(B, J, 2) * 400).to(torch.bfloat16)
    vis = torch.rand(B, J) > 0.2
    return FixedRigReprojectionLoss(), (pred, kp, vis)
