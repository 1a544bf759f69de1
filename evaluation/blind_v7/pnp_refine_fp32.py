import torch
from torch import nn


class DLTPoseSolver(nn.Module):
    """EPro-PnP/DSAC flavoured solver: the DLT solve runs in float32 with autocast off, cast back after."""

    def __init__(self, feat_dim: int = 32, n_pts: int = 8) -> None:
        super().__init__()
        self.n_pts = n_pts
        self.corr_head = nn.Linear(feat_dim, n_pts * 5)

    def forward(self, feat: torch.Tensor, K: torch.Tensor) -> torch.Tensor:
        B = feat.shape[0]
        corr = self.corr_head(feat).view(B, self.n_pts, 5)
        with torch.autocast(device_type=feat.device.type, enabled=False):
            x3d = corr[..., :3].float()
            uv = corr[..., 3:].float()
            K32 = K.float()  # lookalike: deliberate float32 region, both sides float32
            ray = torch.cat([uv, torch.ones_like(uv[..., :1])], -1) @ torch.linalg.inv(K32).transpose(1, 2)
            A = torch.einsum("bni,bnj->bij", x3d, ray)
            U, _, Vh = torch.linalg.svd(A)
            R = U @ Vh
        return R.to(feat.dtype)  # lookalike: cast back


def example():
    torch.manual_seed(0)
    model = DLTPoseSolver().to(torch.bfloat16)
    K = torch.tensor([[[100.0, 0, 32], [0, 100.0, 24], [0, 0, 1]]]).repeat(2, 1, 1)
    return model, (torch.randn(2, 32, dtype=torch.bfloat16), K)
