import torch
import torch.nn as nn


def split_extrinsics(extrinsics):
    """(B, 4, 4) world-to-camera -> rotation (B, 3, 3) and translation (B, 3)."""
    return extrinsics[:, :3, :3], extrinsics[:, :3, 3]


class CameraFrameLifter(nn.Module):
    """Predicts world points per token and re-expresses them in the camera frame."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.point_head = nn.Linear(dim, 3)
        self.out = nn.Linear(3, dim)

    def forward(self, tokens, extrinsics):
        world_pts = self.point_head(tokens)
        R, t = split_extrinsics(extrinsics)
        cam_pts = (
            world_pts @ R.mT  # expect: DTL002
            + t[:, None, :]  # expect: DTL002
        )
        return self.out(cam_pts)


def example():
    model = CameraFrameLifter().to(torch.bfloat16)
    ext = torch.eye(4).repeat(2, 1, 1)
    ext[:, :3, 3] = torch.tensor([0.1, -0.2, 2.0])
    return model, (torch.randn(2, 12, 32, dtype=torch.bfloat16), ext)
