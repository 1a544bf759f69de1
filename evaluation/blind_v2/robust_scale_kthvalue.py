"""Robust point-to-plane loss with an adaptive (median-based) scale per cloud."""

import torch
import torch.nn as nn


class AdaptiveCauchyLoss(nn.Module):
    def __init__(self, min_sigma: float = 1e-2):
        super().__init__()
        self.min_sigma = min_sigma

    def forward(self, pred_points, target_points, target_normals):
        """All inputs (B, N, 3); returns a scalar loss."""
        residual = ((pred_points - target_points) * target_normals).sum(-1).abs()  # (B, N)
        B, N = residual.shape
        median = residual.kthvalue(max(N // 2, 1), dim=-1).values
        floor = torch.full((B,), self.min_sigma, device=residual.device)  # expect: DTL001
        sigma = torch.maximum(1.4826 * median, floor)
        scaled = residual / sigma[:, None]
        return torch.log1p(scaled ** 2).mean()


def example():
    pred = torch.randn(2, 32, 3, dtype=torch.bfloat16)
    tgt = torch.randn(2, 32, 3, dtype=torch.bfloat16)
    normals = torch.nn.functional.normalize(torch.randn(2, 32, 3), dim=-1).to(torch.bfloat16)
    return AdaptiveCauchyLoss(), (pred, tgt, normals)
