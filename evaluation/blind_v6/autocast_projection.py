"""Point projection written for mixed precision: matmuls under autocast, a float32 solve outside it."""
import torch
import torch.nn as nn


class AutocastProjector(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.point_head = nn.Linear(dim, 3)
        self.refine = nn.Linear(2, dim)

    def forward(self, tokens: torch.Tensor, intrinsics: torch.Tensor, extrinsics: torch.Tensor) -> torch.Tensor:
        with torch.autocast(device_type=tokens.device.type, dtype=torch.bfloat16):
            pts = self.point_head(tokens)
            pts_h = torch.cat([pts, torch.ones_like(pts[..., :1])], dim=-1)
            cam = pts_h @ extrinsics.transpose(-1, -2)  # lookalike: autocast casts the operands
            uvw = cam[..., :3] @ intrinsics.transpose(-1, -2)  # lookalike: autocast casts the operands
        with torch.autocast(device_type=tokens.device.type, enabled=False):
            A = uvw.float().transpose(-1, -2) @ uvw.float() + 1e-3 * torch.eye(3, device=uvw.device)  # lookalike: deliberate float32 region
            scale = torch.linalg.solve(A, uvw.float().sum(1, keepdim=True).transpose(-1, -2))
        uv = uvw[..., :2] / uvw[..., 2:].clamp(min=1e-3)
        return self.refine(uv) * scale.mean().to(uv.dtype)


def example():
    m = AutocastProjector().to(torch.bfloat16)
    K = torch.tensor([[50.0, 0, 20.0], [0, 50.0, 20.0], [0, 0, 1.0]]).expand(2, 3, 3)
    E = torch.eye(4).expand(2, 4, 4).clone()
    E[:, 2, 3] = 3.0
    return m, (torch.randn(2, 8, 32, dtype=torch.bfloat16), K, E)
