"""HMR/SPIN regressor output projected with a weak-to-full perspective camera."""
import torch
import torch.nn as nn


def perspective_projection(points: torch.Tensor, global_orient: torch.Tensor, root_offset: torch.Tensor,
                           focal_length: float, camera_center: torch.Tensor) -> torch.Tensor:
    batch_size = points.shape[0]
    K = torch.zeros([batch_size, 3, 3], device=points.device)  # expect: DTL001
    K[:, 0, 0] = focal_length
    K[:, 1, 1] = focal_length
    K[:, 2, 2] = 1.0
    K[:, :-1, -1] = camera_center
    points = torch.einsum("bij,bkj->bki", global_orient, points)
    points = points + root_offset.unsqueeze(1)
    projected_points = points / points[:, :, -1].unsqueeze(-1)
    projected_points = torch.einsum("bij,bkj->bki", K, projected_points)
    return projected_points[:, :, :-1]


class JointProjector(nn.Module):
    def __init__(self, feat_dim: int = 64, num_joints: int = 14, focal_length: float = 5000.0, img_res: int = 224):
        super().__init__()
        self.num_joints, self.focal_length, self.img_res = num_joints, focal_length, img_res
        self.joint_head = nn.Linear(feat_dim, num_joints * 3)
        self.cam_head = nn.Linear(feat_dim, 3)

    def forward(self, feat: torch.Tensor, camera_center: torch.Tensor) -> torch.Tensor:
        B = feat.shape[0]
        pred_joints = self.joint_head(feat).view(B, self.num_joints, 3)
        pred_cam = self.cam_head(feat)  # lookalike: weak-perspective camera regressed by the network (an activation)
        pred_cam_t = torch.stack([pred_cam[:, 1], pred_cam[:, 2],
                                  2 * self.focal_length / (self.img_res * pred_cam[:, 0] + 1e-9)], dim=-1)
        return perspective_projection(
            pred_joints,
            global_orient=torch.eye(3, device=feat.device).unsqueeze(0).expand(B, -1, -1),  # expect: DTL001
            root_offset=pred_cam_t,
            focal_length=self.focal_length,
            camera_center=camera_center,
        )


def example():
    m = JointProjector().to(torch.bfloat16)
    feat = torch.randn(2, 64, dtype=torch.bfloat16)
    camera_center = torch.full((2, 2), 112.0)
    return m, (feat, camera_center)
