"""Object pose head predicting a 6D rotation and a translation from ROI features."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def rot6d_to_matrix(rot6d):
    a1, a2 = rot6d[..., :3], rot6d[..., 3:]
    b1 = F.normalize(a1, dim=-1)
    b2 = F.normalize(a2 - (b1 * a2).sum(-1, keepdim=True) * b1, dim=-1)
    b3 = torch.cross(b1, b2, dim=-1)
    return torch.stack([b1, b2, b3], dim=-1)


class PoseHead(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.rot_head = nn.Linear(dim, 6)
        self.trans_head = nn.Linear(dim, 3)

    def forward(self, roi_feats, model_points):
        """roi_feats: (B, C); model_points: (B, N, 3) CAD model points (model dtype)."""
        rot = self.rot_head(roi_feats)
        trans = self.trans_head(roi_feats)
        R = rot6d_to_matrix(rot)
        t = trans[:, None, :]
        posed = model_points @ R.transpose(1, 2) + t
        T = torch.cat([R, trans[..., None]], dim=-1)
        return posed, T


def example():
    return PoseHead().to(torch.bfloat16), (torch.randn(2, 32, dtype=torch.bfloat16), torch.randn(2, 9, 3, dtype=torch.bfloat16))
