"""Token pruning (DynamicViT / EViT style): keep the top-k patch tokens by CLS attention."""
import torch
import torch.nn as nn


class TopKTokenSelect(nn.Module):
    def __init__(self, dim: int = 32, keep_ratio: float = 0.5):
        super().__init__()
        self.keep_ratio = keep_ratio
        self.score = nn.Linear(dim, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, N, C = x.shape
        cls_tok, patches = x[:, :1], x[:, 1:]
        k = max(1, int((N - 1) * self.keep_ratio))
        scores = self.score(patches).squeeze(-1)
        idx = scores.topk(k, dim=1).indices  # lookalike: indices only
        batch_idx = torch.arange(B, device=x.device)[:, None].expand(-1, k)  # lookalike: index arange
        kept = patches[batch_idx, idx]
        dropped = torch.ones(B, N - 1, dtype=torch.bool, device=x.device)
        dropped[batch_idx, idx] = False
        order = torch.full((B, N - 1), -1, device=x.device)  # lookalike: integer fill, meets only indices
        order[batch_idx, idx] = torch.arange(k, device=x.device).expand(B, -1)  # lookalike: integer values
        fused = (patches * dropped[..., None].to(x.dtype)).sum(1, keepdim=True)
        fused = fused / dropped.sum(1).clamp(min=1).view(B, 1, 1)
        restored = kept.gather(1, order.clamp(min=0)[..., None].expand(-1, -1, C))
        restored = restored * (order >= 0)[..., None].to(x.dtype) + fused * dropped[..., None].to(x.dtype)
        return torch.cat([cls_tok, kept, fused], dim=1), restored


def example():
    m = TopKTokenSelect().to(torch.bfloat16)
    return m, (torch.randn(2, 17, 32, dtype=torch.bfloat16),)
