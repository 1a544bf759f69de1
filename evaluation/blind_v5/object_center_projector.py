import torch
from torch import nn


class ObjectCenterProjector(nn.Module):
    """Moves predicted object centres from the world into the camera and projects them."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.center_head = nn.Linear(dim, 3)

    def forward(self, obj_feats, R, t, K):
        centers = self.center_head(obj_feats)
        cam = centers @ R.to(centers.dtype).mT + t.to(centers)[:, None, :]  # lookalike: cameras cast
        cam = torch.cat([cam[..., :2], cam[..., 2:].abs() + 1.0], dim=-1)
        uvw = cam @ K.type_as(cam).mT  # lookalike: camera cast
        return uvw[..., :2] / uvw[..., 2:]


def example():
    torch.manual_seed(0)
    model = ObjectCenterProjector().to(torch.bfloat16)
    feats = torch.randn(2, 8, 32, dtype=torch.bfloat16)
    R = torch.eye(3).expand(2, 3, 3).clone()
    t = torch.tensor([[0.0, 0.0, 5.0], [0.5, 0.0, 4.0]])
    K = torch.tensor([[100.0, 0.0, 64.0], [0.0, 100.0, 48.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3).clone()
    return model, (feats, R, t, K)
