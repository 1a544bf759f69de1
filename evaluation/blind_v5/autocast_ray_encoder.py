import torch
from torch import nn


class AutocastRayEncoder(nn.Module):
    """Camera-aware token encoder whose ray and camera products run under autocast."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.cam_mlp = nn.Linear(9, dim)
        self.fuse = nn.Linear(dim + 3, dim)

    def forward(self, tokens, pix_h, intrinsics):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            rays = pix_h @ torch.inverse(intrinsics).mT  # lookalike: autocast casts the operands
            rays = rays / rays.norm(dim=-1, keepdim=True)
            cam_embed = self.cam_mlp(intrinsics.flatten(1) / 100.0)
            out = self.fuse(torch.cat([tokens, rays], dim=-1)) + cam_embed[:, None]
        return out


def example():
    torch.manual_seed(0)
    model = AutocastRayEncoder().to(torch.bfloat16)
    tokens = torch.randn(2, 24, 32, dtype=torch.bfloat16)
    uv = torch.rand(2, 24, 2) * 64
    pix_h = torch.cat([uv, torch.ones(2, 24, 1)], dim=-1).to(torch.bfloat16)
    intrinsics = torch.tensor([[60.0, 0.0, 32.0], [0.0, 60.0, 32.0], [0.0, 0.0, 1.0]]).expand(2, 3, 3).clone()
    return model, (tokens, pix_h, intrinsics)
