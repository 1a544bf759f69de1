import torch
import torch.nn as nn


class StableReprojection(nn.Module):
    """Reprojection deliberately done in fp32 with autocast disabled."""

    def __init__(self, dim: int = 128):
        super().__init__()
        self.xyz = nn.Linear(dim, 3)

    def forward(self, feat, K, w2c):
        xyz = self.xyz(feat)
        with torch.autocast(device_type="cuda", enabled=False):
            cam = xyz.float() @ w2c[:, :3, :3].float().mT  # lookalike: both sides cast in an fp32 region
            uvw = cam @ K.float().mT  # lookalike: both sides fp32
        return (uvw[..., :2] / uvw[..., 2:].clamp(min=1e-6)).to(xyz.dtype)


class ProjectFp32(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda", cast_inputs=torch.float32)
    def forward(ctx, pts, K):
        ctx.save_for_backward(pts, K)
        return pts @ K.mT  # lookalike: custom_fwd(cast_inputs=...) casts both inputs

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx, grad_out):
        pts, K = ctx.saved_tensors
        return grad_out @ K.to(grad_out.dtype), None
