import torch
import torch.nn as nn
import torch.nn.functional as F


class NormalPredictionHead(nn.Module):
    """Predicts camera-frame surface normals per sample and rotates them to world space."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.normal_head = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 3))

    def forward(self, feats: torch.Tensor, c2w: torch.Tensor):
        n_cam = F.normalize(self.normal_head(feats), dim=-1)
        n_world = torch.bmm(n_cam, c2w[:, :3, :3].transpose(1, 2))  # expect: DTL002
        return F.normalize(n_world, dim=-1)


def example():
    model = NormalPredictionHead().to(torch.bfloat16)
    c2w = torch.eye(4).repeat(2, 1, 1)
    c2w[:, :3, 3] = 1.0
    return model, (torch.randn(2, 64, 32, dtype=torch.bfloat16), c2w)
