import torch
from torch import nn


class SlotCrossAttention(nn.Module):
    """Slots attend to image features; keys named K, scores computed in float32 on both sides."""

    def __init__(self, dim: int = 16):
        super().__init__()
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.scale = dim ** -0.5

    def forward(self, slots: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
        Q = self.to_q(slots)
        K = self.to_k(inputs)  # lookalike: attention keys named K are activations, not intrinsics
        V = self.to_v(inputs)
        logits = Q.float() @ K.float().transpose(-1, -2) * self.scale  # lookalike: both operands cast together
        attn = logits.softmax(dim=1).to(V.dtype)  # lookalike: cast back to the activation dtype before the product
        attn = attn / (attn.sum(dim=-1, keepdim=True) + 1e-8)
        updates = attn @ V  # lookalike: two activations
        dots = torch.einsum("bsd,bnd->bsn", Q, K)  # lookalike: two activations
        return updates + dots.mean(-1, keepdim=True)


def example():
    torch.manual_seed(0)
    model = SlotCrossAttention().to(torch.bfloat16)
    slots = torch.randn(2, 4, 16).to(torch.bfloat16)
    inputs = torch.randn(2, 12, 16).to(torch.bfloat16)
    return model, (slots, inputs)
