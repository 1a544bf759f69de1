import torch
from torch import nn


class LearnableIntrinsicsRays(nn.Module):
    """NeRF-- style ray generation: focal lengths are learned parameters, poses come from the dataset."""

    def __init__(self, H: int = 6, W: int = 8, init_focal: float = 1.0) -> None:
        super().__init__()
        self.H, self.W = H, W
        self.log_focal = nn.Parameter(torch.full((2,), float(init_focal)).log())
        v, u = torch.meshgrid(torch.arange(H) + 0.5, torch.arange(W) + 0.5, indexing="ij")
        self.register_buffer("uv", torch.stack([u / W - 0.5, v / H - 0.5], dim=-1).view(-1, 2), persistent=False)

    def forward(self, c2w: torch.Tensor) -> torch.Tensor:
        f = self.log_focal.exp()
        dirs = torch.cat([self.uv / f, -torch.ones_like(self.uv[:, :1])], dim=-1)
        rays_d = dirs @ c2w[:3, :3].T  # expect: DTL002
        rays_o = c2w[:3, 3].to(rays_d.dtype).expand_as(rays_d)  # lookalike: camera cast before use
        return torch.cat([rays_o, nn.functional.normalize(rays_d, dim=-1)], dim=-1)


def example():
    torch.manual_seed(0)
    model = LearnableIntrinsicsRays().to(torch.bfloat16)
    c2w = torch.eye(4)[:3]
    c2w[:, 3] = torch.tensor([0.0, 0.2, 3.0])
    return model, (c2w,)
