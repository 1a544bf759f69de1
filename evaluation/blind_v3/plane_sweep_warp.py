import torch
import torch.nn.functional as F
from torch import nn


def relative_homographies(K_ref, K_src, c2w_ref, c2w_src, depths: tuple):
    """Plane-induced homographies ref->src for fronto-parallel planes at the given depths (floats)."""
    rel = torch.linalg.inv(c2w_src) @ c2w_ref  # lookalike: camera @ camera
    R, t = rel[:, :3, :3], rel[:, :3, 3:]
    n = torch.tensor([[0.0, 0.0, 1.0]], device=R.device)  # lookalike: meets camera values only
    Rt_planes = torch.stack([R - (t @ n) / d for d in depths], dim=1)
    return K_src[:, None] @ Rt_planes @ torch.linalg.inv(K_ref)[:, None]  # lookalike: camera values only


class PlaneSweepWarp(nn.Module):
    def __init__(self, n_planes: int = 4):
        super().__init__()
        self.depths = tuple(1.0 + 7.0 * i / (n_planes - 1) for i in range(n_planes))

    def forward(self, src_feat: torch.Tensor, K_ref, K_src, c2w_ref, c2w_src) -> torch.Tensor:
        B, C, H, W = src_feat.shape
        Hs = relative_homographies(K_ref, K_src, c2w_ref, c2w_src, self.depths)
        ys, xs = torch.meshgrid(torch.arange(H, device=src_feat.device), torch.arange(W, device=src_feat.device), indexing="ij")
        pix = torch.stack([xs, ys, torch.ones_like(xs)], -1).view(1, 1, -1, 3).to(src_feat.dtype)
        warped = pix @ Hs.to(src_feat.dtype).transpose(-1, -2)  # lookalike: camera product cast before meeting activations
        grid = warped[..., :2] / warped[..., 2:].clamp(min=1e-3)
        grid = grid / grid.new_tensor([W - 1, H - 1]) * 2 - 1
        D = grid.shape[1]
        out = F.grid_sample(src_feat.repeat_interleave(D, 0), grid.view(B * D, H, W, 2), align_corners=True)
        return out.view(B, D, C, H, W)


def example():
    torch.manual_seed(0)
    model = PlaneSweepWarp().to(torch.bfloat16)
    src_feat = torch.randn(1, 4, 6, 8).to(torch.bfloat16)
    K = torch.tensor([[10.0, 0.0, 4.0], [0.0, 10.0, 3.0], [0.0, 0.0, 1.0]])[None]
    c2w_src = torch.eye(4)[None].clone()
    c2w_src[:, 0, 3] = 0.2
    return model, (src_feat, K, K.clone(), torch.eye(4)[None], c2w_src)
