"""PointNet++ set abstraction: farthest point sampling, ball query and grouping."""
import torch
import torch.nn as nn


def square_distance(src: torch.Tensor, dst: torch.Tensor) -> torch.Tensor:
    return torch.sum((src[:, :, None] - dst[:, None]) ** 2, dim=-1)


def index_points(points: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    B = points.shape[0]
    view_shape = [B] + [1] * (idx.dim() - 1)
    batch_indices = torch.arange(B, device=points.device).view(view_shape).expand_as(idx)  # lookalike: index arange
    return points[batch_indices, idx, :]


def farthest_point_sample(xyz: torch.Tensor, npoint: int) -> torch.Tensor:
    B, N, _ = xyz.shape
    centroids = torch.zeros(B, npoint, dtype=torch.long, device=xyz.device)  # lookalike: integer buffer
    distance = torch.ones(B, N, device=xyz.device) * 1e10  # expect: DTL001
    farthest = torch.zeros(B, dtype=torch.long, device=xyz.device)
    batch_indices = torch.arange(B, dtype=torch.long, device=xyz.device)
    for i in range(npoint):
        centroids[:, i] = farthest
        centroid = xyz[batch_indices, farthest, :].view(B, 1, 3)
        dist = torch.sum((xyz - centroid) ** 2, -1)
        mask = dist < distance
        distance[mask] = dist[mask]
        farthest = torch.max(distance, -1)[1]
    return centroids


def query_ball_point(radius: float, nsample: int, xyz: torch.Tensor, new_xyz: torch.Tensor) -> torch.Tensor:
    B, N, _ = xyz.shape
    S = new_xyz.shape[1]
    group_idx = torch.arange(N, dtype=torch.long, device=xyz.device).view(1, 1, N).repeat([B, S, 1])
    sqrdists = square_distance(new_xyz, xyz)
    group_idx[sqrdists > radius**2] = N  # lookalike: comparison with a number gives a bool mask
    group_idx = group_idx.sort(dim=-1)[0][:, :, :nsample]
    group_first = group_idx[:, :, :1].repeat([1, 1, nsample])
    mask = group_idx == N
    group_idx[mask] = group_first[mask]
    return group_idx


class SetAbstraction(nn.Module):
    def __init__(self, npoint: int = 16, radius: float = 0.4, nsample: int = 8, in_ch: int = 16, out_ch: int = 32):
        super().__init__()
        self.npoint, self.radius, self.nsample = npoint, radius, nsample
        self.mlp = nn.Sequential(nn.Linear(in_ch + 3, out_ch), nn.ReLU(), nn.Linear(out_ch, out_ch))

    def forward(self, xyz: torch.Tensor, points: torch.Tensor):
        fps_idx = farthest_point_sample(xyz, self.npoint)
        new_xyz = index_points(xyz, fps_idx)
        idx = query_ball_point(self.radius, self.nsample, xyz, new_xyz)
        grouped_xyz = index_points(xyz, idx) - new_xyz[:, :, None]
        grouped = torch.cat([grouped_xyz, index_points(points, idx)], dim=-1)
        return new_xyz, self.mlp(grouped).max(dim=2)[0]


def example():
    sa = SetAbstraction().to(torch.bfloat16)
    xyz = torch.rand(2, 64, 3, dtype=torch.bfloat16)
    feats = torch.randn(2, 64, 16, dtype=torch.bfloat16)
    return sa, (xyz, feats)
