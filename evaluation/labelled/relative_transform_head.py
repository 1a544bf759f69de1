import torch
import torch.nn as nn


def rotation_6d_to_matrix(d6: torch.Tensor) -> torch.Tensor:
    a1, a2 = d6[..., :3], d6[..., 3:]
    b1 = nn.functional.normalize(a1, dim=-1)
    b2 = nn.functional.normalize(a2 - (b1 * a2).sum(-1, keepdim=True) * b1, dim=-1)
    b3 = torch.cross(b1, b2, dim=-1)
    return torch.stack((b1, b2, b3), dim=-2)


class RelativeTransformHead(nn.Module):
    def __init__(self, dim: int = 256):
        super().__init__()
        self.rot = nn.Linear(dim, 6)
        self.trans = nn.Linear(dim, 3)

    def forward(self, feat):
        B = feat.shape[0]
        R = rotation_6d_to_matrix(self.rot(feat))
        t = self.trans(feat)
        T_rel = torch.eye(4, device=feat.device).repeat(B, 1, 1)  # expect: DTL001
        T_rel[:, :3, :3] = R
        T_rel[:, :3, 3] = t
        eye3 = torch.eye(3, device=feat.device, dtype=R.dtype)  # lookalike: dtype given
        ortho_err = (R.transpose(1, 2) @ R - eye3).pow(2).sum(dim=(1, 2))
        return T_rel, ortho_err
