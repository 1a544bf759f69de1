"""Transformer decoder step with cross attention and a tied output head."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.out_proj = nn.Linear(dim, dim)

    def forward(self, x, memory, memory_mask=None):
        query = self.q_proj(x) / math.sqrt(x.size(-1))
        key = self.k_proj(memory)
        value = self.v_proj(memory)
        scores = torch.bmm(query, key.transpose(1, 2))
        if memory_mask is not None:
            scores = scores.masked_fill(~memory_mask[:, None, :], float("-inf"))
        attn_weights = torch.softmax(scores.float(), dim=-1)
        context = torch.bmm(attn_weights.half(), value)  # expect: DTL003
        return self.out_proj(context)


class DecoderStep(nn.Module):
    def __init__(self, vocab: int = 50, dim: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.cross = CrossAttention(dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, tokens, memory, memory_mask):
        h = self.embed(tokens)
        h = h + self.cross(self.norm(h), memory, memory_mask)
        # logits in fp32 for a stable cross-entropy
        return F.linear(h.float(), self.embed.weight)  # expect: DTL003


def example():
    model = DecoderStep().to(torch.bfloat16)
    tokens = torch.randint(0, 50, (2, 5))
    memory = torch.randn(2, 7, 32, dtype=torch.bfloat16)
    memory_mask = torch.ones(2, 7, dtype=torch.bool)
    return model, (tokens, memory, memory_mask)
