import torch
from torch import nn


class TokenDropoutEncoder(nn.Module):
    """Protein/speech LM input: dropped tokens zeroed in place, then rescaled in place (dtype of x kept)."""

    def __init__(self, vocab: int = 33, dim: int = 32, mask_idx: int = 32) -> None:
        super().__init__()
        self.mask_idx = mask_idx
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        keep = tokens != self.mask_idx
        x *= keep.unsqueeze(-1).float()  # lookalike: in-place multiply keeps x's dtype
        x.masked_fill_((tokens == 0).unsqueeze(-1), 0.0)
        x.mul_(1.0 - 0.15 * 0.8)
        return self.proj(x)


def example():
    torch.manual_seed(0)
    model = TokenDropoutEncoder().to(torch.bfloat16)
    tokens = torch.randint(1, 33, (2, 12))
    tokens[0, :3] = 32
    return model, (tokens,)
