import torch
from torch import nn


class KeypointDepthLifter(nn.Module):
    """MonoCon-style head: back-projects 2D keypoints with predicted depth into camera space."""

    def __init__(self, in_dim: int = 32, num_kpts: int = 9):
        super().__init__()
        self.num_kpts = num_kpts
        self.offset_head = nn.Linear(in_dim, num_kpts * 2)
        self.depth_head = nn.Linear(in_dim, num_kpts)

    def forward(self, obj_feats, centers_2d, cam2imgs_inv):
        N = obj_feats.shape[0]
        kpts = centers_2d[:, None, :] + self.offset_head(obj_feats).view(N, self.num_kpts, 2)
        depth = self.depth_head(obj_feats).exp().unsqueeze(-1)
        kpts_h = torch.cat([kpts * depth, depth], dim=-1)
        pts_cam = kpts_h @ cam2imgs_inv[:, :3, :3].transpose(1, 2)  # expect: DTL002
        dims = (pts_cam.amax(dim=1) - pts_cam.amin(dim=1)).abs()
        return pts_cam.mean(dim=1), dims


def example():
    torch.manual_seed(0)
    model = KeypointDepthLifter().to(torch.bfloat16)
    feats = torch.randn(5, 32, dtype=torch.bfloat16)
    centers = (torch.rand(5, 2) * 100).to(torch.bfloat16)
    K = torch.tensor([[500.0, 0.0, 320.0], [0.0, 500.0, 240.0], [0.0, 0.0, 1.0]])
    cam2imgs_inv = torch.linalg.inv(K).expand(5, 3, 3).clone()
    return model, (feats, centers, cam2imgs_inv)
