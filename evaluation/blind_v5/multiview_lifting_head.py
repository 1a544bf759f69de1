import torch
from torch import nn


class MultiViewLiftingHead(nn.Module):
    """Projects predicted 3D box centres into every camera with the batch's lidar2imgs."""

    def __init__(self, embed_dims: int = 32, num_query: int = 20):
        super().__init__()
        self.center_head = nn.Linear(embed_dims, 3)
        self.score_head = nn.Linear(embed_dims, 1)

    def project(self, centers, lidar2imgs):
        B, Q, _ = centers.shape
        homo = torch.cat([centers, centers.new_ones(B, Q, 1)], dim=-1)  # lookalike: new_ones
        num_views = lidar2imgs.shape[1]
        homo = homo.unsqueeze(1).expand(-1, num_views, -1, -1).reshape(B * num_views, Q, 4)
        img_pts = torch.bmm(
            homo,
            lidar2imgs.reshape(B * num_views, 4, 4).transpose(1, 2),  # expect: DTL002
        )
        depth = img_pts[..., 2:3].clamp(min=1e-3)
        return (img_pts[..., :2] / depth).view(B, num_views, Q, 2)

    def forward(self, queries, lidar2imgs):
        centers = self.center_head(queries).tanh() * 50.0
        scores = self.score_head(queries).sigmoid()
        return self.project(centers, lidar2imgs), scores


def example():
    torch.manual_seed(0)
    model = MultiViewLiftingHead().to(torch.bfloat16)
    queries = torch.randn(2, 20, 32, dtype=torch.bfloat16)
    lidar2imgs = torch.eye(4).expand(2, 6, 4, 4).clone()
    return model, (queries, lidar2imgs)
