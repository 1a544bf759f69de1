import torch
import torch.nn.functional as F
from torch import nn


class RayConditioning(nn.Module):
    """Adds a Plücker ray embedding (direction, moment) to multi-view diffusion tokens."""

    def __init__(self, dim: int = 16):
        super().__init__()
        self.dir_head = nn.Linear(dim, 3)
        self.proj = nn.Linear(6, dim)

    def forward(self, tokens: torch.Tensor, batch: dict) -> torch.Tensor:
        dirs_cam = F.normalize(self.dir_head(tokens), dim=-1)
        dirs_world = torch.einsum("bij,bnj->bni", batch["c2w"][:, :3, :3], dirs_cam)  # expect: DTL002
        origins = batch["c2w"][:, None, :3, 3].to(dirs_world.dtype)  # lookalike: camera centre cast before use
        moment = torch.cross(origins.expand_as(dirs_world), dirs_world, dim=-1)
        return tokens + self.proj(torch.cat([dirs_world, moment], dim=-1))


def example():
    torch.manual_seed(0)
    model = RayConditioning().to(torch.bfloat16)
    tokens = torch.randn(2, 10, 16).to(torch.bfloat16)
    c2w = torch.eye(4).repeat(2, 1, 1)
    c2w[:, :3, 3] = torch.randn(2, 3)
    batch = {"c2w": c2w, "image_id": torch.arange(2)}
    return model, (tokens, batch)
