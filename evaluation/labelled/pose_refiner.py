import torch
import torch.nn as nn


class PoseRefiner(nn.Module):
    """DeepIM-style refinement: a predicted delta transform is applied to the current object pose."""

    def __init__(self, dim: int = 512):
        super().__init__()
        self.head = nn.Linear(dim, 12)

    def forward(self, feat, RT, cam_pose):
        B = feat.shape[0]
        delta = self.head(feat).view(B, 3, 4)
        bottom = delta.new_tensor([0.0, 0.0, 0.0, 1.0]).expand(B, 1, 4)  # lookalike: new_*
        delta_T = torch.cat([delta, bottom], dim=1)
        refined = torch.bmm(delta_T, RT)  # expect: DTL002
        in_cam = torch.bmm(
            cam_pose,  # expect: DTL002
            refined,
        )
        return refined, in_cam
