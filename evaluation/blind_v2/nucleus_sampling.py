"""Autoregressive token sampling with temperature and nucleus (top-p) filtering."""

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 64, dim: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        h, _ = self.rnn(self.embed(tokens))
        return self.head(h[:, -1])


def top_p_filter(logits, top_p: float):
    sorted_logits, sorted_idx = logits.sort(dim=-1, descending=True)
    cum_probs = sorted_logits.softmax(dim=-1).cumsum(dim=-1)
    remove = cum_probs - sorted_logits.softmax(dim=-1) > top_p
    remove = remove.scatter(1, sorted_idx, remove)
    return logits.masked_fill(remove, float("-inf"))


@torch.no_grad()
def sample_next(model, tokens, temperature: float = 0.8, top_p: float = 0.9):
    logits = model(tokens) / temperature
    probs = top_p_filter(logits, top_p).softmax(dim=-1)
    # inverse-CDF sampling; keeps the sampling step reproducible across devices
    cdf = probs.sort(dim=-1, descending=True).values.cumsum(dim=-1)
    u = torch.rand(tokens.shape[0], 1, device=tokens.device)  # expect: DTL001
    rank = (cdf < u).sum(dim=-1, keepdim=True).clamp(max=probs.shape[-1] - 1)
    order = probs.argsort(dim=-1, descending=True)
    next_token = order.gather(1, rank)
    return torch.cat([tokens, next_token], dim=1)


def example():
    model = TinyLM().to(torch.bfloat16)
    tokens = torch.randint(0, 64, (3, 5))
    return sample_next, (model, tokens)
