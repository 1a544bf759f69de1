import torch
from torch import nn
import torch.nn.functional as F

PARENTS = [-1, 0, 1, 2, 0, 4, 5]


class KinematicChain(nn.Module):
    """Forward kinematics of a small skeleton from predicted local bone frames (SMPL-style LBS prep)."""

    def __init__(self, feat_dim: int = 32, parents=PARENTS) -> None:
        super().__init__()
        self.parents = list(parents)
        self.head = nn.Linear(feat_dim, len(self.parents) * 6)

    def forward(self, feat: torch.Tensor, joints: torch.Tensor) -> torch.Tensor:
        B, J = joints.shape[:2]
        d6 = self.head(feat).view(B, J, 3, 2)
        a1 = F.normalize(d6[..., 0], dim=-1)
        a2 = F.normalize(d6[..., 1] - (a1 * d6[..., 1]).sum(-1, keepdim=True) * a1, dim=-1)
        bone_mats = torch.stack([a1, a2, torch.cross(a1, a2, dim=-1)], dim=-1)
        rel_joints = joints.clone()
        rel_joints[:, 1:] = joints[:, 1:] - joints[:, self.parents[1:]]
        local = torch.cat([F.pad(bone_mats, [0, 0, 0, 1]), F.pad(rel_joints[..., None], [0, 0, 0, 1], value=1.0)], dim=-1)
        chain = torch.zeros(B, J, 4, 4, device=joints.device)  # expect: DTL001
        chain[:, 0] = local[:, 0]
        for i in range(1, J):
            chain[:, i] = chain[:, self.parents[i]] @ local[:, i]
        return chain[..., :3, 3]


def example():
    torch.manual_seed(0)
    model = KinematicChain().to(torch.bfloat16)
    feat = torch.randn(2, 32, dtype=torch.bfloat16)
    joints = torch.randn(2, 7, 3, dtype=torch.bfloat16)
    return model, (feat, joints)
