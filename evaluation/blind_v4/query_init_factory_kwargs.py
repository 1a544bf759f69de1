import torch
import torch.nn as nn


class QueryInitializer(nn.Module):
    """DETR-style learned queries with reference points, padded memory for a null slot."""

    def __init__(self, num_queries: int = 16, dim: int = 32):
        super().__init__()
        self.content = nn.Embedding(num_queries, dim)

    def _zeros(self, *size, **factory_kwargs):
        return torch.zeros(*size, **factory_kwargs)  # lookalike: dtype may come through **kwargs

    def forward(self, memory):
        B, _, C = memory.shape
        factory_kwargs = {"device": memory.device, "dtype": memory.dtype}
        ref = torch.zeros(B, self.content.num_embeddings, 2, **factory_kwargs)  # lookalike: dtype in kwargs
        null = self._zeros(B, 1, C, **factory_kwargs)
        queries = self.content.weight[None].expand(B, -1, -1)
        mem = torch.cat([memory, null], dim=1)
        attn = torch.softmax(queries @ mem.transpose(1, 2) * C ** -0.5, dim=-1)
        return attn @ mem, ref + 0.5


def example():
    model = QueryInitializer().to(torch.bfloat16)
    return model, (torch.randn(2, 30, 32, dtype=torch.bfloat16),)
