import torch
import torch.nn as nn


class RelativePositionBias(nn.Module):
    """Swin-style relative position bias: table is a parameter, index is a buffer."""

    def __init__(self, window: int = 7, heads: int = 4):
        super().__init__()
        self.window = window
        self.heads = heads
        self.table = nn.Parameter(torch.zeros((2 * window - 1) ** 2, heads))  # lookalike: parameter
        coords = torch.stack(torch.meshgrid(torch.arange(window), torch.arange(window), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (window - 1)
        index = rel[..., 0] * (2 * window - 1) + rel[..., 1]
        self.register_buffer("index", index, persistent=False)  # lookalike: registered buffer
        nn.init.trunc_normal_(self.table, std=0.02)

    def forward(self, attn):
        N = self.window * self.window
        bias = self.table[self.index.view(-1)].view(N, N, self.heads).permute(2, 0, 1)
        return attn + bias.unsqueeze(0)
