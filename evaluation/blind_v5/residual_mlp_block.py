import torch
from torch import nn


def drop_path(x, drop_prob: float = 0.0, training: bool = False):
    """timm stochastic depth: drops whole residual branches per sample."""
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)  # lookalike: new_empty follows x
    return x * random_tensor / keep_prob


def run_branch(branch: nn.Module, x, mask=None):
    out = branch(x)
    if mask is None:
        return out
    return out.masked_fill(~mask[..., None], 0.0)


class ResidualMLPBlock(nn.Module):
    """Pre-norm MLP block with stochastic depth, an optional token mask and a float gain."""

    def __init__(self, dim: int = 32, drop_prob: float = 0.1):
        super().__init__()
        self.drop_prob = drop_prob
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, mask=None, gain: float = 1.0):
        h = run_branch(self.mlp, self.norm(x), mask)
        return x + drop_path(h, self.drop_prob, self.training) * gain


def example():
    torch.manual_seed(0)
    model = ResidualMLPBlock().to(torch.bfloat16)
    x = torch.randn(4, 10, 32, dtype=torch.bfloat16)
    mask = torch.rand(4, 10) > 0.1
    return model, (x, mask, 0.5)
