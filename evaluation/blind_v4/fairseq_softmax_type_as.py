import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderDecoderAttention(nn.Module):
    """fairseq-style: softmax in float32, then `.type_as` back to the activations' dtype."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.q_proj = nn.Linear(dim, dim)
        self.kv_proj = nn.Linear(dim, 2 * dim)
        self.scaling = dim ** -0.5

    def forward(self, query, memory):
        q = self.q_proj(query) * self.scaling
        k, v = self.kv_proj(memory).chunk(2, dim=-1)
        attn_weights = torch.bmm(q, k.transpose(1, 2))
        attn_probs = F.softmax(attn_weights.float(), dim=-1).type_as(attn_weights)  # lookalike: cast back
        return torch.bmm(attn_probs, v)


def example():
    model = EncoderDecoderAttention().to(torch.bfloat16)
    return model, (torch.randn(2, 5, 32, dtype=torch.bfloat16), torch.randn(2, 9, 32, dtype=torch.bfloat16))
