"""Token merging (ToMe-style bipartite matching) written with in-place updates."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BipartiteMerge(nn.Module):
    def __init__(self, dim: int = 32, threshold: float = 0.5):
        super().__init__()
        self.threshold = threshold
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        metric = self.proj(x)
        a_idx, b_idx = slice(0, N, 2), slice(1, N, 2)
        scores = F.normalize(metric[:, a_idx], dim=-1) @ F.normalize(metric[:, b_idx], dim=-1).transpose(-1, -2)
        node_max, node_idx = scores.max(dim=-1)
        keep = node_max < self.threshold  # lookalike: comparison with a number
        a = x[:, a_idx].clone()
        b = x[:, b_idx].clone()
        src = a * (~keep)[..., None].to(a.dtype)
        b.scatter_reduce_(1, node_idx[..., None].expand(-1, -1, C), src, reduce="sum")
        a *= keep[..., None].float()  # lookalike: in-place, keeps a's dtype
        a.masked_fill_(~keep[..., None], 0.0)  # lookalike: in-place fill with a number
        b.clamp_(-10.0, 10.0)
        return torch.cat([a, b], dim=1)


def example():
    m = BipartiteMerge().to(torch.bfloat16)
    return m, (torch.randn(2, 12, 32, dtype=torch.bfloat16),)
