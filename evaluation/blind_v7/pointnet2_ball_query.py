import torch
from torch import nn


def farthest_point_sample(xyz: torch.Tensor, npoint: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long, device=xyz.device)
    distance = torch.full((B, N), 1e10, device=xyz.device, dtype=xyz.dtype)  # lookalike: dtype given
    farthest = torch.zeros(B, dtype=torch.long, device=xyz.device)
    batch_indices = torch.arange(B, dtype=torch.long, device=xyz.device)  # lookalike: integer index arange
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        distance = torch.minimum(distance, dist)
        farthest = torch.max(distance, -1)[1]
    return centroids


def index_points(points: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    B = points.shape[0]
    view_shape = [B] + [1] * (idx.dim() - 1)
    batch_indices = torch.arange(B, device=points.device).view(view_shape).expand_as(idx)  # lookalike: index arange
    return points[batch_indices, idx, :]


def query_ball_point(radius: float, nsample: int, xyz: torch.Tensor, new_xyz: torch.Tensor) -> torch.Tensor:
    B, N, _ = xyz.shape
    S = new_xyz.shape[1]
    group_idx = torch.arange(N, device=xyz.device).view(1, 1, N).repeat(B, S, 1)  # lookalike: index arange
    sqrdists = torch.cdist(new_xyz.float(), xyz.float()) ** 2  # lookalike: both operands cast together
    group_idx[sqrdists > radius ** 2] = N
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    group_first = group_idx[:, :, :1].expand(-1, -1, nsample)
    mask = group_idx == N
    group_idx[mask] = group_first[mask]
    return group_idx


class SetAbstraction(nn.Module):
    def __init__(self, npoint: int = 16, radius: float = 0.4, nsample: int = 8, in_ch: int = 4, out_ch: int = 32) -> None:
        super().__init__()
        self.npoint, self.radius, self.nsample = npoint, radius, nsample
        self.mlp_convs = nn.ModuleList()
        last = in_ch + 3
        for ch in (16, out_ch):
            self.mlp_convs.append(nn.Conv2d(last, ch, 1))
            last = ch

    def forward(self, xyz: torch.Tensor, points: torch.Tensor):
        new_xyz = index_points(xyz, farthest_point_sample(xyz, self.npoint))
        idx = query_ball_point(self.radius, self.nsample, xyz, new_xyz)
        grouped_xyz = index_points(xyz, idx) - new_xyz[:, :, None]
        new_points = torch.cat([grouped_xyz, index_points(points, idx)], dim=-1).permute(0, 3, 2, 1)
        for conv in self.mlp_convs:
            new_points = torch.relu(conv(new_points))
        return new_xyz, new_points.max(2)[0]


def example():
    torch.manual_seed(0)
    model = SetAbstraction().to(torch.bfloat16)
    xyz = torch.rand(2, 64, 3, dtype=torch.bfloat16)
    pts = torch.randn(2, 64, 4, dtype=torch.bfloat16)
    return model, (xyz, pts)
