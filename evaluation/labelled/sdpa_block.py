import torch
import torch.nn as nn
import torch.nn.functional as F


class SDPABlock(nn.Module):
    def __init__(self, dim: int, heads: int = 8, max_len: int = 512):
        super().__init__()
        self.heads = heads
        self.pos = nn.Embedding(max_len, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, key_padding):
        B, L, D = x.shape
        x = x + self.pos(torch.arange(L, device=x.device))  # lookalike: integer positions index an embedding
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        causal = torch.ones(L, L, dtype=torch.bool, device=x.device).tril()  # lookalike: dtype given
        mask = causal[None, None] & ~key_padding[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, L, D))
