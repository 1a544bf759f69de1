import torch
import torch.nn as nn


class AmpAttentionBlock(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.scale = dim**-0.5
        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        with torch.cuda.amp.autocast(dtype=torch.bfloat16):
            q, k, v = self.qkv(self.norm(x)).chunk(3, dim=-1)
            attn = (q @ k.transpose(-2, -1) * self.scale).float().softmax(dim=-1)
            out = attn @ v  # lookalike: autocast casts matmul operands
            return x + self.to_out(out)
