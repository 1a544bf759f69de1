import torch
import torch.nn as nn


class QueryScoreHead(nn.Module):
    """Keeps, per query, the best class score seen over the decoder layers."""

    def __init__(self, dim: int = 32, num_classes: int = 10, num_layers: int = 3):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(dim, dim) for _ in range(num_layers))
        self.cls = nn.Linear(dim, num_classes)

    def forward(self, queries):
        B, Q, _ = queries.shape
        best = torch.full((B, Q), -1e4, device=queries.device)  # expect: DTL001
        best_label = torch.zeros(B, Q, dtype=torch.long, device=queries.device)  # lookalike: integer labels
        h = queries
        for layer in self.layers:
            h = torch.relu(layer(h)) + h
            top = self.cls(h).max(dim=-1)
            improved = top.values > best
            best = torch.where(improved, top.values, best)
            best_label = torch.where(improved, top.indices, best_label)
        return best, best_label


def example():
    model = QueryScoreHead().to(torch.bfloat16)
    return model, (torch.randn(2, 16, 32, dtype=torch.bfloat16),)
