import torch
from torch import nn


class HandMeshRegressor(nn.Module):
    """Hand mesh regressor (METRO/MobRecon flavoured) with a 2D reprojection of the predicted joints."""

    def __init__(self, feat_dim: int = 32, n_verts: int = 24, n_joints: int = 6) -> None:
        super().__init__()
        self.n_verts = n_verts
        self.vert_head = nn.Linear(feat_dim, n_verts * 3)
        self.joint_regressor = nn.Parameter(torch.rand(n_joints, n_verts).softmax(-1))

    def forward(self, feat: torch.Tensor, batch: dict) -> dict:
        B = feat.shape[0]
        verts = self.vert_head(feat).view(B, self.n_verts, 3) * 0.05
        root = batch["root_depth"].to(verts.dtype).view(B, 1, 1)  # lookalike: cast
        joints_cam = torch.einsum("jv,bvc->bjc", self.joint_regressor, verts) + torch.cat(
            [torch.zeros_like(root), torch.zeros_like(root), root], dim=-1
        )
        proj = joints_cam @ batch["intrinsics"].transpose(1, 2)  # expect: DTL002
        uv = proj[..., :2] / proj[..., 2:].clamp(min=1e-4)
        return {"verts": verts, "joints_cam": joints_cam, "joints_2d": uv}


def example():
    torch.manual_seed(0)
    model = HandMeshRegressor().to(torch.bfloat16)
    K = torch.tensor([[[500.0, 0, 112], [0, 500.0, 112], [0, 0, 1]]]).repeat(2, 1, 1)
    batch = {"intrinsics": K, "root_depth": torch.tensor([0.6, 0.8])}
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), batch)
