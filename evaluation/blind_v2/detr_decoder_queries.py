"""DETR decoder: learned query embeddings, zero-initialized targets and box refinement."""

import torch
import torch.nn as nn


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


class DETRDecoderHead(nn.Module):
    def __init__(self, dim: int = 32, num_queries: int = 6, num_classes: int = 4):
        super().__init__()
        self.query_embed = nn.Embedding(num_queries, dim)
        self.decoder = DecoderLayer(dim)
        self.class_embed = nn.Linear(dim, num_classes + 1)
        self.bbox_embed = nn.Linear(dim, 4)

    def forward(self, memory):
        B = memory.shape[0]
        query_pos = self.query_embed.weight.unsqueeze(0).expand(B, -1, -1)
        tgt = torch.zeros_like(query_pos)
        hs = self.decoder(tgt + query_pos, memory)
        reference = query_pos.new_full((B, query_pos.shape[1], 4), 0.5)
        boxes = (self.bbox_embed(hs) + torch.logit(reference, eps=1e-4)).sigmoid()
        logits = self.class_embed(hs)
        labels = logits.argmax(-1)
        return logits, boxes, labels


def example():
    return DETRDecoderHead().to(torch.bfloat16).eval(), (torch.randn(2, 10, 32, dtype=torch.bfloat16),)
