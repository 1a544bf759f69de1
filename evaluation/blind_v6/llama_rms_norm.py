"""LLaMA decoder pieces: RMSNorm with a float32 variance region and a SwiGLU MLP."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)  # lookalike: upcast of the activation itself
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)


class LlamaMLP(nn.Module):
    def __init__(self, hidden: int = 64, inter: int = 128):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, inter, bias=False)
        self.up_proj = nn.Linear(hidden, inter, bias=False)
        self.down_proj = nn.Linear(inter, hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderMLPBlock(nn.Module):
    def __init__(self, hidden: int = 64):
        super().__init__()
        self.post_attention_layernorm = LlamaRMSNorm(hidden)
        self.mlp = LlamaMLP(hidden)

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        return hidden_states + self.mlp(self.post_attention_layernorm(hidden_states))


def example():
    m = DecoderMLPBlock().to(torch.bfloat16)
    return m, (torch.randn(2, 5, 64, dtype=torch.bfloat16),)
