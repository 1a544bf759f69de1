import math

import torch
import torch.nn as nn


class SingleHeadAttention(nn.Module):
    def __init__(self, embed_dim: int = 512, num_embeddings: int = 10000):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings, embed_dim)
        self.query_proj = nn.Linear(embed_dim, embed_dim)
        self.key_proj = nn.Linear(embed_dim, embed_dim)
        self.value_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        x_emb = self.embedding(x)
        query = self.query_proj(x_emb)
        key = self.key_proj(x_emb)
        value = self.value_proj(x_emb)
        query = query / math.sqrt(query.size(-1))
        attn_scores = query @ key.transpose(-2, -1)  # lookalike: two activations
        attn_scores = attn_scores.float()  # upcast for a stable softmax
        attn_weights = torch.softmax(attn_scores, dim=-1)
        attn_weights = attn_weights.half()  # downcast back to "half"
        context = attn_weights @ value  # expect: DTL003
        return self.out_proj(context)
