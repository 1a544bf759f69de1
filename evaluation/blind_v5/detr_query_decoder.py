import torch
from torch import nn


class QueryDecoderLayer(nn.Module):
    """DETR decoder entry: zero targets plus learned query positions attend to the memory."""

    def __init__(self, dim: int = 32, num_queries: int = 10):
        super().__init__()
        self.num_queries = num_queries
        self.query_embed = nn.Embedding(num_queries, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, memory):
        B, N, C = memory.shape
        factory_kwargs = {"device": memory.device, "dtype": memory.dtype}
        tgt = torch.zeros(B, self.num_queries, C, **factory_kwargs)  # lookalike: dtype via **factory_kwargs
        query_pos = self.query_embed.weight.unsqueeze(0).expand(B, -1, -1)
        attn = torch.softmax((tgt + query_pos) @ memory.transpose(1, 2) * C ** -0.5, dim=-1)
        tgt = tgt + attn @ memory
        return self.out(tgt)


def example():
    torch.manual_seed(0)
    model = QueryDecoderLayer().to(torch.bfloat16)
    memory = torch.randn(2, 30, 32, dtype=torch.bfloat16)
    return model, (memory,)
