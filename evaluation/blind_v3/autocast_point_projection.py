import torch
from torch import nn


@torch.autocast(device_type="cpu", dtype=torch.bfloat16)
def rotate_points(points: torch.Tensor, R: torch.Tensor) -> torch.Tensor:
    return points @ R.mT  # lookalike: autocast decorator casts the matmul operands


class ProjectedFeatureHead(nn.Module):
    """Projects predicted 3D anchors into the image inside an autocast region."""

    def __init__(self, dim: int = 16):
        super().__init__()
        self.to_pts = nn.Linear(dim, 3)
        self.out = nn.Linear(2, dim)

    def forward(self, feats: torch.Tensor, intrinsics: torch.Tensor, cam_rot: torch.Tensor) -> torch.Tensor:
        with torch.autocast(device_type=feats.device.type, dtype=torch.bfloat16):
            pts = self.to_pts(feats) + 4.0
            pts = rotate_points(pts, cam_rot)
            uvw = pts @ intrinsics.transpose(-1, -2)  # lookalike: under torch.autocast
            uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)
            return self.out(uv)


def example():
    torch.manual_seed(0)
    model = ProjectedFeatureHead().to(torch.bfloat16)
    feats = torch.randn(2, 5, 16).to(torch.bfloat16)
    intrinsics = torch.tensor([[40.0, 0.0, 16.0], [0.0, 40.0, 16.0], [0.0, 0.0, 1.0]]).repeat(2, 1, 1)
    cam_rot = torch.eye(3).repeat(2, 1, 1)
    return model, (feats, intrinsics, cam_rot)
