"""Deformable-DETR style decoder layer refining 2D reference points."""

import torch
import torch.nn as nn


def inverse_sigmoid(x, eps: float = 1e-5):
    x = x.clamp(min=0, max=1)
    return torch.log(x.clamp(min=eps) / (1 - x).clamp(min=eps))


class DecoderLayer(nn.Module):
    """Pre-norm decoder layer: self-attention, cross-attention to the memory, MLP."""

    def __init__(self, dim: int, hidden: int = 64):
        super().__init__()
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.q_cross = nn.Linear(dim, dim)
        self.kv_cross = nn.Linear(dim, 2 * dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU(), nn.Linear(hidden, dim))

    @staticmethod
    def attend(q, k, v):
        return torch.softmax(q @ k.transpose(1, 2) / q.shape[-1] ** 0.5, dim=-1) @ v

    def forward(self, x, memory):
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        x = x + self.attend(q, k, v)
        k, v = self.kv_cross(memory).chunk(2, dim=-1)
        x = x + self.attend(self.q_cross(self.norm2(x)), k, v)
        return x + self.mlp(self.norm3(x))


class RefineDecoder(nn.Module):
    def __init__(self, dim: int = 32, num_layers: int = 3):
        super().__init__()
        self.layers = nn.ModuleList(DecoderLayer(dim) for _ in range(num_layers))
        self.bbox_embed = nn.ModuleList(nn.Linear(dim, 2) for _ in range(num_layers))

    def forward(self, query, memory):
        """query: (B, Q, C) decoder queries; memory: (B, S, C) encoder output."""
        B, Q, _ = query.shape
        reference = torch.full((B, Q, 2), 0.5, device=memory.device)  # expect: DTL001
        layer_weights = torch.as_tensor([0.25, 0.25, 0.5], device=query.device)  # expect: DTL001
        outputs = []
        for layer, head in zip(self.layers, self.bbox_embed):
            query = layer(query, memory)
            reference = (head(query) + inverse_sigmoid(reference)).sigmoid()
            outputs.append(reference)
        stacked = torch.stack(outputs, dim=0)
        return (stacked * layer_weights[:, None, None, None]).sum(0)


def example():
    model = RefineDecoder().to(torch.bfloat16).eval()
    return model, (torch.randn(2, 5, 32, dtype=torch.bfloat16), torch.randn(2, 9, 32, dtype=torch.bfloat16))
