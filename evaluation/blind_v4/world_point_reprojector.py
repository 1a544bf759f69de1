import torch
import torch.nn as nn


class WorldPointReprojector(nn.Module):
    """Predicts world points (ScanNet frame) and moves them to the camera of a c2w pose."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.xyz_head = nn.Linear(dim, 3)
        self.out = nn.Linear(3, dim)

    def forward(self, query_feats, pose):
        xyz = self.xyz_head(query_feats)
        xyz_h = torch.cat([xyz, torch.ones_like(xyz[..., :1])], dim=-1)
        w2c = torch.inverse(pose)
        cam = xyz_h @ w2c.transpose(1, 2)  # expect: DTL002
        return self.out(cam[..., :3] / cam[..., 3:])


def example():
    model = WorldPointReprojector().to(torch.bfloat16)
    pose = torch.eye(4).repeat(2, 1, 1)
    pose[:, :3, 3] = torch.tensor([1.0, 2.0, 0.5])
    return model, (torch.randn(2, 30, 32, dtype=torch.bfloat16), pose)
