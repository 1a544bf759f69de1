import torch
import torch.nn as nn


def drop_path(x, drop_prob: float = 0.0, training: bool = False):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    keep = torch.rand(x.shape[0], 1, 1, device=x.device) < keep_prob  # lookalike: bool mask
    return x * keep / keep_prob


class MlpBlock(nn.Module):
    def __init__(self, dim: int = 32, drop_path_rate: float = 0.2):
        super().__init__()
        self.drop_path_rate = drop_path_rate
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + drop_path(self.mlp(self.norm(x)), self.drop_path_rate, self.training)


def example():
    model = MlpBlock().to(torch.bfloat16)
    return model, (torch.randn(8, 10, 32, dtype=torch.bfloat16),)
