"""Selective-scan block (Mamba-like) whose recurrent state is allocated with factory kwargs."""
import torch
import torch.nn as nn


def allocate_state(batch_size: int, d_inner: int, d_state: int, **kwargs) -> torch.Tensor:
    return torch.zeros(batch_size, d_inner, d_state, **kwargs)  # lookalike: dtype may come through **kwargs


class SelectiveScan(nn.Module):
    def __init__(self, d_model: int = 32, d_state: int = 8, expand: int = 2, device=None, dtype=None):
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.d_inner, self.d_state = expand * d_model, d_state
        self.in_proj = nn.Linear(d_model, self.d_inner * 2, **factory_kwargs)
        self.x_proj = nn.Linear(self.d_inner, 1 + 2 * d_state, **factory_kwargs)
        self.A_log = nn.Parameter(torch.log(torch.arange(1, d_state + 1, **factory_kwargs).float()).repeat(self.d_inner, 1))
        self.out_proj = nn.Linear(self.d_inner, d_model, **factory_kwargs)

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        B, L, _ = hidden_states.shape
        factory_kwargs = {"device": hidden_states.device, "dtype": hidden_states.dtype}
        x, z = self.in_proj(hidden_states).chunk(2, dim=-1)
        dt, Bm, Cm = torch.split(self.x_proj(x), [1, self.d_state, self.d_state], dim=-1)
        A = -torch.exp(self.A_log)
        h = allocate_state(B, self.d_inner, self.d_state, **factory_kwargs)
        ys = torch.empty(B, L, self.d_inner, **factory_kwargs)  # lookalike: dtype given through **factory_kwargs
        for t in range(L):
            dA = torch.exp(torch.nn.functional.softplus(dt[:, t, :, None]) * A)
            h = dA * h + x[:, t, :, None] * Bm[:, t, None, :]
            ys[:, t] = (h * Cm[:, t, None, :]).sum(-1)
        return self.out_proj(ys * torch.sigmoid(z))


def example():
    m = SelectiveScan().to(torch.bfloat16)
    return m, (torch.randn(2, 6, 32, dtype=torch.bfloat16),)
