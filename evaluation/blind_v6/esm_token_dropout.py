"""ESM-2 token dropout: rescale embeddings by the observed mask ratio, cast to the embedding dtype."""
import torch
import torch.nn as nn


class ESMEmbeddings(nn.Module):
    def __init__(self, vocab: int = 33, dim: int = 32, mask_idx: int = 32, padding_idx: int = 1):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim, padding_idx=padding_idx)
        self.mask_idx, self.padding_idx = mask_idx, padding_idx
        self.layer_norm = nn.LayerNorm(dim)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        padding_mask = tokens.eq(self.padding_idx)
        x = self.embed_tokens(tokens)
        x = x.masked_fill((tokens == self.mask_idx).unsqueeze(-1), 0.0)  # lookalike: bool mask
        mask_ratio_train = 0.15 * 0.8
        src_lengths = (~padding_mask).sum(-1)
        mask_ratio_observed = (tokens == self.mask_idx).sum(-1).to(x.dtype) / src_lengths  # lookalike: count cast to x.dtype
        x = x * (1 - mask_ratio_train) / (1 - mask_ratio_observed)[:, None, None]
        x = x * (1 - padding_mask.unsqueeze(-1).type_as(x))  # lookalike: mask cast with type_as
        return self.layer_norm(x)


def example():
    m = ESMEmbeddings().to(torch.bfloat16)
    tokens = torch.randint(4, 30, (2, 12))
    tokens[0, 3] = 32
    tokens[1, -2:] = 1
    return m, (tokens,)
