import numpy as np
import torch
from torch import nn


class RandomFourierPromptEmbedder(nn.Module):
    """SAM-like sparse prompt encoder: random Fourier features of click coordinates plus a label embedding."""

    def __init__(self, embed_dim: int = 32, scale: float = 1.0) -> None:
        super().__init__()
        self.register_buffer("gaussian_matrix", scale * torch.randn((2, embed_dim // 2)))
        self.point_embeddings = nn.Embedding(2, embed_dim)
        self.not_a_point = nn.Parameter(torch.zeros(embed_dim))

    def _pe_encoding(self, coords: torch.Tensor) -> torch.Tensor:
        coords = 2 * coords - 1
        coords = coords @ self.gaussian_matrix
        coords = 2 * np.pi * coords
        return torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1)

    def forward(self, points: torch.Tensor, labels: torch.Tensor, image_size: tuple) -> torch.Tensor:
        coords = points + 0.5
        coords = torch.stack([coords[..., 0] / image_size[1], coords[..., 1] / image_size[0]], dim=-1)
        pe = self._pe_encoding(coords.to(torch.float))  # expect: DTL003
        pe = torch.where((labels == -1)[..., None], self.not_a_point, pe)
        return pe + self.point_embeddings(labels.clamp(min=0))


def example():
    torch.manual_seed(0)
    model = RandomFourierPromptEmbedder().to(torch.bfloat16)
    points = torch.tensor([[[10.0, 20.0], [30.0, 5.0], [0.0, 0.0]]], dtype=torch.bfloat16)
    labels = torch.tensor([[1, 0, -1]])
    return model, (points, labels, (64, 64))
