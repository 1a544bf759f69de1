import torch
import torch.nn as nn


class AlibiAttention(nn.Module):
    def __init__(self, dim: int, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.dense = nn.Linear(dim, dim)

    def forward(self, x, alibi):
        B, L, D = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q.reshape(B * self.heads, L, self.head_dim)
        k = k.reshape(B * self.heads, L, self.head_dim)
        v = v.reshape(B * self.heads, L, self.head_dim)
        scores = torch.baddbmm(
            alibi,
            q.float(),  # expect: DTL003
            k.transpose(1, 2),
            beta=1.0,
            alpha=self.head_dim**-0.5,
        )
        probs = scores.softmax(dim=-1).to(v.dtype)  # lookalike: cast back before the second bmm
        out = torch.bmm(probs, v)
        return self.dense(out.view(B, self.heads, L, self.head_dim).transpose(1, 2).reshape(B, L, D))
