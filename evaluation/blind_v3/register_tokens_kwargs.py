import torch
from torch import nn


def empty_cache(x: torch.Tensor, length: int, **kwargs) -> torch.Tensor:
    return torch.zeros(x.shape[0], length, x.shape[-1], **kwargs)  # lookalike: dtype may come through **kwargs


class RegisterTokens(nn.Module):
    """Appends zero-initialised register slots and a rolling cache to a token sequence."""

    def __init__(self, dim: int = 16, n_reg: int = 4, device=None, dtype=None):
        super().__init__()
        factory_kwargs = {"device": device, "dtype": dtype}
        self.n_reg = n_reg
        self.reg_scale = nn.Parameter(torch.ones(dim, **factory_kwargs))
        self.mix = nn.Linear(dim, dim, **factory_kwargs)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        tok_kwargs = {"device": x.device, "dtype": x.dtype}
        regs = torch.zeros(x.shape[0], self.n_reg, x.shape[-1], **tok_kwargs)  # lookalike: dtype via **tok_kwargs
        regs = regs + self.reg_scale
        cache = empty_cache(x, 2, device=x.device, dtype=x.dtype)
        return self.mix(torch.cat([cache, x, regs], dim=1))


def example():
    torch.manual_seed(0)
    model = RegisterTokens().to(torch.bfloat16)
    x = torch.randn(2, 5, 16).to(torch.bfloat16)
    return model, (x,)
