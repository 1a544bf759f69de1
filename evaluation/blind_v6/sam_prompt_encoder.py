"""Random Fourier position encoding of point prompts (Segment Anything's PositionEmbeddingRandom)."""
from typing import Tuple

import numpy as np
import torch
import torch.nn as nn


class PositionEmbeddingRandom(nn.Module):
    def __init__(self, num_pos_feats: int = 64, scale: float = 1.0) -> None:
        super().__init__()
        self.register_buffer(
            "positional_encoding_gaussian_matrix",
            scale * torch.randn((2, num_pos_feats)),
        )

    def _pe_encoding(self, coords: torch.Tensor) -> torch.Tensor:
        coords = 2 * coords - 1
        coords = coords @ self.positional_encoding_gaussian_matrix
        coords = 2 * np.pi * coords
        return torch.cat([torch.sin(coords), torch.cos(coords)], dim=-1)

    def forward(self, size: Tuple[int, int]) -> torch.Tensor:
        h, w = size
        device = self.positional_encoding_gaussian_matrix.device
        grid = torch.ones((h, w), device=device, dtype=self.positional_encoding_gaussian_matrix.dtype)  # lookalike: dtype given
        y_embed = (grid.cumsum(dim=0) - 0.5) / h
        x_embed = (grid.cumsum(dim=1) - 0.5) / w
        pe = self._pe_encoding(torch.stack([x_embed, y_embed], dim=-1))
        return pe.permute(2, 0, 1)

    def forward_with_coords(self, coords_input: torch.Tensor, image_size: Tuple[int, int]) -> torch.Tensor:
        coords = coords_input.clone()
        coords[:, :, 0] = coords[:, :, 0] / image_size[1]
        coords[:, :, 1] = coords[:, :, 1] / image_size[0]
        return self._pe_encoding(coords.to(torch.float))  # expect: DTL003


class PointPromptEncoder(nn.Module):
    def __init__(self, embed_dim: int = 128, image_size: Tuple[int, int] = (256, 256)):
        super().__init__()
        self.pe_layer = PositionEmbeddingRandom(embed_dim // 2)
        self.point_embeddings = nn.Embedding(2, embed_dim)
        self.image_size = image_size

    def forward(self, points: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        points = points + 0.5  # shift to the pixel centre
        point_embedding = self.pe_layer.forward_with_coords(points, self.image_size)
        return point_embedding + self.point_embeddings(labels)


def example():
    enc = PointPromptEncoder().to(torch.bfloat16)
    points = torch.rand(2, 5, 2) * 255.0  # click coordinates as the dataloader gives them (float32)
    labels = torch.randint(0, 2, (2, 5))
    return enc, (points, labels)
