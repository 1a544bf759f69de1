import torch
from torch import nn


class BoxFourierEmbedder(nn.Module):
    """GLIGEN's Fourier embedder for grounding boxes; computes in float32 and says so."""

    def __init__(self, num_freqs: int = 8, temperature: float = 100.0) -> None:
        super().__init__()
        self.num_freqs, self.temperature = num_freqs, temperature

    def forward(self, boxes: torch.Tensor) -> torch.Tensor:
        f = torch.arange(self.num_freqs, device=boxes.device, dtype=torch.float32)
        bands = self.temperature ** (f / self.num_freqs)
        x = boxes.float()[..., None] * bands
        return torch.cat([x.sin(), x.cos()], dim=-1).flatten(-2)


class GroundingTokenNet(nn.Module):
    def __init__(self, text_dim: int = 32, out_dim: int = 32, num_freqs: int = 8) -> None:
        super().__init__()
        self.fourier = BoxFourierEmbedder(num_freqs)
        self.linears = nn.Sequential(
            nn.Linear(text_dim + num_freqs * 2 * 4, 64), nn.SiLU(), nn.Linear(64, out_dim)
        )
        self.null_feature = nn.Parameter(torch.zeros(text_dim))

    def forward(self, boxes: torch.Tensor, masks: torch.Tensor, text_emb: torch.Tensor) -> torch.Tensor:
        box_emb = self.fourier(boxes).to(text_emb.dtype)  # lookalike: submodule float32 output cast back
        m = masks.unsqueeze(-1).to(text_emb.dtype)  # lookalike: mask cast to activation dtype
        text_emb = text_emb * m + (1 - m) * self.null_feature
        return self.linears(torch.cat([text_emb, box_emb], dim=-1))


def example():
    torch.manual_seed(0)
    model = GroundingTokenNet().to(torch.bfloat16)
    boxes = torch.rand(2, 5, 4)
    masks = torch.tensor([[1, 1, 1, 0, 0], [1, 0, 0, 0, 0]])
    return model, (boxes, masks, torch.randn(2, 5, 32, dtype=torch.bfloat16))
