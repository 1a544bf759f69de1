import math

import torch
from torch import nn


class StreamingPositionalEncoding(nn.Module):
    """Conformer/ESPnet-style sinusoidal encoding computed on the fly for chunked streaming input."""

    def __init__(self, d_model: int = 32, dropout: float = 0.0) -> None:
        super().__init__()
        self.d_model = d_model
        self.xscale = math.sqrt(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, offset: int = 0) -> torch.Tensor:
        T = x.size(1)
        opts = dict(device=x.device)
        pe = torch.zeros(T, self.d_model, **opts)  # expect: DTL001
        position = torch.arange(offset, offset + T, **opts).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, self.d_model, 2, **opts) * -(math.log(10000.0) / self.d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        return self.dropout(x * self.xscale + pe[None])


def example():
    model = StreamingPositionalEncoding().to(torch.bfloat16)
    return model, (torch.randn(2, 10, 32, dtype=torch.bfloat16), 20)
