import torch
from torch import nn


class NeRFFrequencyEncoder(nn.Module):
    """Positional encoding of sample points followed by the density MLP trunk."""

    def __init__(self, num_freqs: int = 6, width: int = 64):
        super().__init__()
        self.num_freqs = num_freqs
        self.trunk = nn.Sequential(nn.Linear(3 + 6 * num_freqs, width), nn.ReLU(), nn.Linear(width, 4))

    def encode(self, x):
        opts = dict(device=x.device)
        freq_bands = 2.0 ** torch.linspace(0, self.num_freqs - 1, self.num_freqs, **opts)  # expect: DTL001
        xb = x[..., None, :] * freq_bands[:, None]
        xb = xb.flatten(-2)
        return torch.cat([x, torch.sin(xb), torch.cos(xb)], dim=-1)

    def forward(self, pts):
        out = self.trunk(self.encode(pts))
        return torch.relu(out[..., :1]), torch.sigmoid(out[..., 1:])


def example():
    torch.manual_seed(0)
    model = NeRFFrequencyEncoder().to(torch.bfloat16)
    pts = torch.randn(2, 64, 3, dtype=torch.bfloat16)
    return model, (pts,)
