import torch
import torch.nn as nn


def unproject_keypoints(uv: torch.Tensor, depth: torch.Tensor, K_inv: torch.Tensor) -> torch.Tensor:
    """Pixel keypoints (B, N, 2) with depths (B, N) -> camera-frame points (B, N, 3)."""
    uv1 = torch.cat([uv, torch.ones_like(uv[..., :1])], dim=-1)
    rays = torch.einsum("bij,bnj->bni", K_inv, uv1)  # expect: DTL002
    return rays * depth[..., None]


class KeypointLifter(nn.Module):
    def __init__(self, dim: int = 32, num_kpts: int = 17, img_size: float = 64.0):
        super().__init__()
        self.num_kpts, self.img_size = num_kpts, img_size
        self.uv_head = nn.Linear(dim, num_kpts * 2)
        self.depth_head = nn.Linear(dim, num_kpts)

    def forward(self, feats, K):
        B = feats.shape[0]
        uv = self.uv_head(feats).sigmoid().view(B, self.num_kpts, 2) * self.img_size
        depth = nn.functional.softplus(self.depth_head(feats)) + 1.0
        return unproject_keypoints(uv, depth, torch.inverse(K))


def example():
    model = KeypointLifter().to(torch.bfloat16)
    K = torch.tensor([[60.0, 0, 32], [0, 60.0, 32], [0, 0, 1]]).expand(2, 3, 3).contiguous()
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), K)
