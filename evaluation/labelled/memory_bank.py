import torch
import torch.nn as nn


class MemoryBank(nn.Module):
    """Slot memory read by attention; every created tensor follows x's dtype."""

    def __init__(self, slots: int, dim: int):
        super().__init__()
        self.slots = slots
        self.read = nn.Linear(dim, dim)

    def forward(self, x):
        B, D = x.shape[0], x.shape[-1]
        factory_kwargs = {"device": x.device, "dtype": x.dtype}
        memory = torch.zeros(B, self.slots, D, **factory_kwargs)  # lookalike: dtype via **factory_kwargs
        gate = torch.ones(B, self.slots, 1, device=x.device).to(x.dtype)  # lookalike: cast right after creation
        noise = torch.randn(B, self.slots, D, device=x.device).type_as(x)  # lookalike: cast right after creation
        bias = x.new_zeros(B, 1, D)  # lookalike: new_*
        init = torch.empty(B, self.slots, D, dtype=x.dtype, device=x.device).uniform_(-0.01, 0.01)  # lookalike: dtype given
        memory = memory + gate * (noise * 1e-3 + init) + bias
        attn = torch.softmax(self.read(x) @ memory.transpose(1, 2), dim=-1)  # lookalike: two activations
        return attn @ memory
