"""RAFT-style lookup: pixel coordinate grid (helper given the dtype) and bilinear correlation sampling."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def coords_grid(batch: int, ht: int, wd: int, device, dtype=torch.float32) -> torch.Tensor:
    coords = torch.meshgrid(torch.arange(ht, device=device, dtype=dtype), torch.arange(wd, device=device, dtype=dtype), indexing="ij")
    coords = torch.stack(coords[::-1], dim=0)
    return coords[None].repeat(batch, 1, 1, 1)


def bilinear_sampler(img: torch.Tensor, coords: torch.Tensor) -> torch.Tensor:
    H, W = img.shape[-2:]
    xgrid, ygrid = coords.split([1, 1], dim=-1)
    xgrid = 2 * xgrid / (W - 1) - 1
    ygrid = 2 * ygrid / (H - 1) - 1
    return F.grid_sample(img, torch.cat([xgrid, ygrid], dim=-1), align_corners=True)


class FlowRefiner(nn.Module):
    def __init__(self, ch: int = 16, iters: int = 2):
        super().__init__()
        self.iters = iters
        self.fnet = nn.Conv2d(3, ch, 3, stride=4, padding=1)
        self.update = nn.Conv2d(ch + 2, 2, 3, padding=1)

    def forward(self, image1: torch.Tensor, image2: torch.Tensor) -> torch.Tensor:
        f1, f2 = self.fnet(image1), self.fnet(image2)
        N, _, H, W = f1.shape
        coords0 = coords_grid(N, H, W, device=f1.device, dtype=f1.dtype)  # lookalike: helper given dtype=
        coords1 = coords0.clone()
        for _ in range(self.iters):
            warped = bilinear_sampler(f2, coords1.permute(0, 2, 3, 1))
            delta = self.update(torch.cat([warped * f1, coords1 - coords0], dim=1))
            coords1 = coords1 + delta
        return coords1 - coords0


def example():
    m = FlowRefiner().to(torch.bfloat16)
    return m, (torch.rand(1, 3, 32, 32, dtype=torch.bfloat16), torch.rand(1, 3, 32, 32, dtype=torch.bfloat16))
