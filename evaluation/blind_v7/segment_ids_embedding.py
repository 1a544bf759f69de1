import torch
from torch import nn


class MultiModalTokenEmbedding(nn.Module):
    """VideoBERT/ViLT-style embeddings: token, position and modality ids built with integer factories."""

    def __init__(self, vocab: int = 100, dim: int = 32, max_len: int = 64, n_types: int = 3) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.typ = nn.Embedding(n_types, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids: torch.Tensor, n_text: int) -> torch.Tensor:
        B, L = input_ids.shape
        pos_ids = torch.arange(L, device=input_ids.device)[None].expand(B, L)  # lookalike: meets only integers
        type_ids = torch.zeros(B, L, dtype=torch.long, device=input_ids.device)
        type_ids[:, n_text:] = torch.tensor(1, device=input_ids.device)  # lookalike: integer 0-dim
        offsets = torch.tensor([0, 1], device=input_ids.device)  # lookalike: integer vector meeting integer ids
        type_ids = type_ids + offsets[(input_ids == 0).long()]
        return self.norm(self.tok(input_ids) + self.pos(pos_ids) + self.typ(type_ids))


def example():
    torch.manual_seed(0)
    model = MultiModalTokenEmbedding().to(torch.bfloat16)
    ids = torch.randint(1, 100, (2, 10))
    ids[0, -2:] = 0
    return model, (ids, 4)
