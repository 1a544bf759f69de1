import torch
import torch.nn as nn


class PointCrossAttention(nn.Module):
    """Queries attend to a local point neighbourhood; similarity computed with einsum."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.scale = dim ** -0.5
        self.to_q = nn.Linear(dim, dim)
        self.to_kv = nn.Linear(dim, 2 * dim)
        self.pos = nn.Linear(3, dim)

    def forward(self, query_feats, point_feats, point_xyz):
        q = self.to_q(query_feats)
        k, v = self.to_kv(point_feats + self.pos(point_xyz)).chunk(2, dim=-1)
        sim = torch.einsum("bid,bjd->bij", q.float(), k) * self.scale  # expect: DTL003
        attn = sim.softmax(dim=-1).to(v.dtype)
        return torch.einsum("bij,bjd->bid", attn, v)


def example():
    model = PointCrossAttention().to(torch.bfloat16)
    return model, (
        torch.randn(2, 8, 32, dtype=torch.bfloat16),
        torch.randn(2, 64, 32, dtype=torch.bfloat16),
        torch.randn(2, 64, 3, dtype=torch.bfloat16),
    )
