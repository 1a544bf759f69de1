import torch
from torch import nn


def drop_path(x: torch.Tensor, drop_prob: float = 0.0, training: bool = False, scale_by_keep: bool = True) -> torch.Tensor:
    """timm's drop_path: the keep mask is made with x.new_empty, so it has x's dtype."""
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)  # lookalike: new_* factory
    if keep_prob > 0.0 and scale_by_keep:
        random_tensor.div_(keep_prob)
    return x * random_tensor


class MlpBlock(nn.Module):
    def __init__(self, dim: int = 32, drop_path_rate: float = 0.3) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, dim * 2)
        self.fc2 = nn.Linear(dim * 2, dim)
        self.drop_path_rate = drop_path_rate

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.fc2(nn.functional.gelu(self.fc1(self.norm(x))))
        return x + drop_path(h, self.drop_path_rate, self.training)


def example():
    torch.manual_seed(0)
    model = MlpBlock().train().to(torch.bfloat16)
    return model, (torch.randn(4, 7, 32, dtype=torch.bfloat16),)
