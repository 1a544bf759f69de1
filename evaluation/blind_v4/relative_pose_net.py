import torch
import torch.nn as nn
import torch.nn.functional as F


class RelativePoseNet(nn.Module):
    """Regresses a relative pose (6D rotation + translation) and applies it to predicted points."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.rot_head = nn.Linear(dim, 6)
        self.trans_head = nn.Linear(dim, 3)
        self.point_head = nn.Linear(dim, 3)

    def forward(self, pair_feat, point_feats):
        a, b = self.rot_head(pair_feat).view(-1, 2, 3).unbind(1)
        x = F.normalize(a, dim=-1)
        y = F.normalize(b - (x * b).sum(-1, keepdim=True) * x, dim=-1)
        R = torch.stack([x, y, torch.cross(x, y, dim=-1)], dim=-1)
        t = self.trans_head(pair_feat)
        bottom = R.new_tensor([0.0, 0.0, 0.0, 1.0]).expand(R.shape[0], 1, 4)
        pose = torch.cat([torch.cat([R, t[..., None]], dim=-1), bottom], dim=1)  # lookalike: from activations
        pts = self.point_head(point_feats)
        pts_h = torch.cat([pts, torch.ones_like(pts[..., :1])], dim=-1)
        return (pts_h @ pose.mT)[..., :3]


def example():
    model = RelativePoseNet().to(torch.bfloat16)
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), torch.randn(2, 20, 32, dtype=torch.bfloat16))
