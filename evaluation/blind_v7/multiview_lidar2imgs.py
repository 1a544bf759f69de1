import torch
from torch import nn
import torch.nn.functional as F


class MultiViewQuerySampler(nn.Module):
    """DETR3D/PETR-flavoured feature lookup: learned 3D reference points projected into every camera."""

    def __init__(self, num_query: int = 16, dim: int = 16, pc_range=(-10.0, -10.0, -2.0, 10.0, 10.0, 2.0)) -> None:
        super().__init__()
        self.reference = nn.Embedding(num_query, 3)
        self.pc_min = list(pc_range[:3])
        self.pc_size = [pc_range[3] - pc_range[0], pc_range[4] - pc_range[1], pc_range[5] - pc_range[2]]
        self.out = nn.Linear(dim, dim)

    def forward(self, mlvl_feats: torch.Tensor, lidar2imgs: torch.Tensor, img_hw: tuple) -> torch.Tensor:
        # mlvl_feats (B, N, C, H, W); lidar2imgs (B, N, 4, 4)
        B, N, C, H, W = mlvl_feats.shape
        ref = self.reference.weight.sigmoid()
        pts = torch.stack([ref[:, i] * self.pc_size[i] + self.pc_min[i] for i in range(3)], dim=-1)
        pts_h = torch.cat([pts, torch.ones_like(pts[:, :1])], dim=-1)
        cam = torch.einsum(
            "bnij,qj->bnqi",
            lidar2imgs,  # expect: DTL002
            pts_h,
        )
        uv = cam[..., :2] / cam[..., 2:3].clamp(min=1e-5)
        grid = torch.stack([uv[..., 0] / img_hw[1], uv[..., 1] / img_hw[0]], dim=-1) * 2 - 1
        sampled = F.grid_sample(mlvl_feats.flatten(0, 1), grid.flatten(0, 1)[:, :, None], align_corners=False)
        sampled = sampled.view(B, N, C, -1).mean(1).transpose(1, 2)
        return self.out(sampled)


def example():
    torch.manual_seed(0)
    model = MultiViewQuerySampler().to(torch.bfloat16)
    feats = torch.randn(1, 2, 16, 8, 12, dtype=torch.bfloat16)
    l2i = torch.eye(4).repeat(1, 2, 1, 1)
    l2i[..., 0, 0] = l2i[..., 1, 1] = 20.0
    l2i[..., 2, 3] = 12.0
    return model, (feats, l2i, (64, 96))
