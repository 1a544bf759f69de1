import torch
import torch.nn as nn


class GatedLowRankAdapter(nn.Module):
    def __init__(self, dim: int, rank: int = 8, experts: int = 4):
        super().__init__()
        self.down = nn.Parameter(torch.randn(dim, rank) * 0.01)  # lookalike: parameter
        self.up = nn.Linear(rank, dim, bias=False)
        self.router = nn.Linear(dim, experts)

    def forward(self, x, expert_feats):
        h = torch.matmul(x.to(torch.float16), self.down)  # expect: DTL003
        probs = self.router(x).float().softmax(dim=-1)
        mixed = torch.einsum("bne,bned->bnd", probs, expert_feats)  # expect: DTL003
        return x + self.up(h) + mixed
