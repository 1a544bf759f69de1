import torch
from torch import nn
import torch.nn.functional as F


def positional_encoding(x: torch.Tensor, n_freqs: int) -> torch.Tensor:
    """NeRF gamma(p): identity plus sin/cos at octave frequencies, evaluated in float32."""
    freqs = 2.0 ** torch.arange(n_freqs, dtype=torch.float32, device=x.device)
    xb = x.float()[..., None, :] * freqs[:, None]
    return torch.cat([x.float(), torch.sin(xb).flatten(-2), torch.cos(xb).flatten(-2)], dim=-1)


class RadianceField(nn.Module):
    """NeRF MLP with a skip connection; layers kept in a ModuleList and called by index."""

    def __init__(self, n_freqs: int = 4, width: int = 64, depth: int = 4, skip: int = 2) -> None:
        super().__init__()
        self.n_freqs, self.skip = n_freqs, skip
        in_dim = 3 + 6 * n_freqs
        self.pts_linears = nn.ModuleList([nn.Linear(in_dim, width)])
        for i in range(1, depth):
            self.pts_linears.append(nn.Linear(width + (in_dim if i == skip else 0), width))
        self.out = nn.Linear(width, 4)

    def forward(self, pts: torch.Tensor) -> torch.Tensor:
        h = F.relu(self.pts_linears[0](positional_encoding(pts, self.n_freqs)))  # expect: DTL003
        for i in range(1, len(self.pts_linears)):
            if i == self.skip:
                h = torch.cat([h, positional_encoding(pts, self.n_freqs).to(h.dtype)], dim=-1)  # lookalike: cast back
            h = F.relu(self.pts_linears[i](h))
        return self.out(h)


def example():
    torch.manual_seed(0)
    model = RadianceField().to(torch.bfloat16)
    return model, (torch.randn(128, 3, dtype=torch.bfloat16),)
