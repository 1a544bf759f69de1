import torch
from torch import nn


class DepthToPointCloud(nn.Module):
    """Depth head whose unprojection runs under autocast (the matmul casts the intrinsics itself)."""

    def __init__(self, in_channels: int = 16) -> None:
        super().__init__()
        self.depth = nn.Conv2d(in_channels, 1, 3, padding=1)

    def forward(self, feats: torch.Tensor, K_inv: torch.Tensor) -> torch.Tensor:
        B, _, H, W = feats.shape
        depth = nn.functional.softplus(self.depth(feats)).flatten(2)
        v, u = torch.meshgrid(
            torch.arange(H, device=feats.device, dtype=feats.dtype),
            torch.arange(W, device=feats.device, dtype=feats.dtype),
            indexing="ij",
        )
        pix = torch.stack([u, v, torch.ones_like(u)]).view(1, 3, -1) * depth
        with torch.autocast(device_type=feats.device.type, dtype=torch.bfloat16):
            pts = torch.matmul(K_inv, pix)  # lookalike: camera operand under autocast
        return pts.transpose(1, 2)


def example():
    torch.manual_seed(0)
    model = DepthToPointCloud().to(torch.bfloat16)
    K = torch.tensor([[60.0, 0, 8], [0, 60.0, 6], [0, 0, 1]])
    return model, (torch.randn(2, 16, 6, 8, dtype=torch.bfloat16), torch.inverse(K).expand(2, 3, 3))
