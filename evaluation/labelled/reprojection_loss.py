import torch
from torch import Tensor


def reprojection_loss(
    pred_xyz: Tensor, gt_uv: Tensor, world2cam: Tensor, K: Tensor, visible: Tensor
) -> Tensor:
    """pred_xyz: (B, J, 3) world joints; world2cam: (B, 4, 4); K: (B, 3, 3)."""
    R, t = world2cam[:, :3, :3], world2cam[:, :3, 3]
    cam = torch.matmul(pred_xyz, R.transpose(1, 2)) + t[:, None]  # expect: DTL002
    uvw = torch.matmul(cam, K.transpose(1, 2))  # expect: DTL002
    uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-4)
    err = (uv - gt_uv).norm(dim=-1) * visible
    return err.sum() / visible.sum().clamp(min=1)
