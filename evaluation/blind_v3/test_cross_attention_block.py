import pytest
import torch
from torch import nn


class CrossAttentionBlock(nn.Module):
    def __init__(self, dim: int = 16, heads: int = 2):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x: torch.Tensor, context: torch.Tensor) -> torch.Tensor:
        out, _ = self.attn(self.norm(x), context, context, need_weights=False)
        return x + out


def test_output_shape():
    block = CrossAttentionBlock()
    x = torch.randn(2, 5, 16)  # lookalike: test code, float32 model
    ctx = torch.randn(2, 3, 16)
    assert block(x, ctx).shape == (2, 5, 16)


@pytest.mark.parametrize("n_ctx", [1, 4])
def test_zero_context_is_residual(n_ctx):
    block = CrossAttentionBlock()
    nn.init.zeros_(block.attn.out_proj.weight)
    nn.init.zeros_(block.attn.out_proj.bias)
    x = torch.randn(1, 3, 16)
    out = block(x, torch.zeros(1, n_ctx, 16))  # lookalike: test code
    torch.testing.assert_close(out - x, torch.zeros(1, 3, 16))  # lookalike: test code


def example():
    torch.manual_seed(0)
    block = CrossAttentionBlock().to(torch.bfloat16)
    return block, (torch.randn(2, 5, 16).to(torch.bfloat16), torch.randn(2, 3, 16).to(torch.bfloat16))
