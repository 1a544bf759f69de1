import torch
from torch import nn


class FixedCameraKeypointProjector(nn.Module):
    """Regresses camera-frame keypoints and projects them with the rig's calibrated intrinsics."""

    def __init__(self, intrinsics, num_kpts: int = 17, dim: int = 32):
        super().__init__()
        self.num_kpts = num_kpts
        self.intrinsics = torch.as_tensor(intrinsics)  # expect: DTL005
        self.kpt_head = nn.Linear(dim, num_kpts * 3)

    def forward(self, feats):
        B = feats.shape[0]
        kpts = self.kpt_head(feats).view(B, self.num_kpts, 3)
        kpts = torch.cat([kpts[..., :2], kpts[..., 2:].exp() + 1.0], dim=-1)
        uvw = torch.matmul(
            kpts,
            self.intrinsics.T,  # expect: DTL002
        )
        return uvw[..., :2] / uvw[..., 2:]


def example():
    torch.manual_seed(0)
    K = [[600.0, 0.0, 320.0], [0.0, 600.0, 240.0], [0.0, 0.0, 1.0]]
    model = FixedCameraKeypointProjector(K).to(torch.bfloat16)
    feats = torch.randn(4, 32, dtype=torch.bfloat16)
    return model, (feats,)
