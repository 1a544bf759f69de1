"""PointPillars pillar feature net: decorate each point with cluster and pillar-centre offsets."""
import torch
import torch.nn as nn


class PillarFeatureNet(nn.Module):
    def __init__(self, in_channels: int = 4, feat_channels: int = 32,
                 voxel_size=(0.2, 0.2, 4.0), point_cloud_range=(0.0, -39.68, -3.0, 69.12, 39.68, 1.0)):
        super().__init__()
        self.vx, self.vy, self.vz = voxel_size
        self.x_offset = self.vx / 2 + point_cloud_range[0]
        self.y_offset = self.vy / 2 + point_cloud_range[1]
        self.z_offset = self.vz / 2 + point_cloud_range[2]
        self.linear = nn.Linear(in_channels + 6, feat_channels, bias=False)
        self.norm = nn.BatchNorm1d(feat_channels)

    def forward(self, features: torch.Tensor, num_points: torch.Tensor, coors: torch.Tensor) -> torch.Tensor:
        points_mean = features[:, :, :3].sum(dim=1, keepdim=True) / num_points.type_as(features).view(-1, 1, 1)
        f_cluster = features[:, :, :3] - points_mean
        opts = dict(device=features.device)
        voxel_size = torch.tensor([self.vx, self.vy, self.vz], **opts)  # expect: DTL001
        offset = torch.tensor([self.x_offset, self.y_offset, self.z_offset], **opts)  # expect: DTL001
        centers = coors[:, [3, 2, 1]] * voxel_size + offset
        f_center = features[:, :, :3] - centers.unsqueeze(1)
        x = torch.cat([features, f_cluster, f_center], dim=-1)
        max_points = features.shape[1]
        mask = torch.arange(max_points, device=features.device)[None] < num_points[:, None]  # lookalike: index arange compared with counts
        x = x * mask.unsqueeze(-1).to(x.dtype)
        x = self.linear(x)
        x = torch.relu(self.norm(x.permute(0, 2, 1)).permute(0, 2, 1))
        return x.max(dim=1)[0]


def example():
    pfn = PillarFeatureNet().to(torch.bfloat16).eval()
    P, M = 12, 8
    feats = torch.randn(P, M, 4).to(torch.bfloat16)
    num_points = torch.randint(1, M + 1, (P,))
    coors = torch.stack([torch.zeros(P, dtype=torch.long), torch.zeros(P, dtype=torch.long),
                         torch.randint(0, 400, (P,)), torch.randint(0, 300, (P,))], dim=1)
    return pfn, (feats, num_points, coors)
