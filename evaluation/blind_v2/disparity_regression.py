"""Stereo matching head: soft-argmin disparity regression over a cost volume (PSMNet)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DisparityRegression(nn.Module):
    def __init__(self, maxdisp: int):
        super().__init__()
        self.maxdisp = maxdisp

    def forward(self, prob):
        """prob: (B, D, H, W) softmax over disparities."""
        disp = torch.arange(0, self.maxdisp, device=prob.device).view(1, -1, 1, 1)  # lookalike: int64, promotes to the bf16 of prob
        return torch.sum(prob * disp, dim=1)


class StereoHead(nn.Module):
    def __init__(self, channels: int = 8, maxdisp: int = 6):
        super().__init__()
        self.maxdisp = maxdisp
        self.cost = nn.Conv3d(1, 1, 3, padding=1)
        self.regression = DisparityRegression(maxdisp)

    def forward(self, left, right):
        B, C, H, W = left.shape
        volume = left.new_zeros(B, 1, self.maxdisp, H, W)
        for d in range(self.maxdisp):
            if d == 0:
                volume[:, 0, d] = (left * right).mean(1)
            else:
                volume[:, 0, d, :, d:] = (left[..., d:] * right[..., :-d]).mean(1)
        cost = self.cost(volume).squeeze(1)
        return self.regression(F.softmax(-cost, dim=1))


def example():
    left = torch.randn(1, 8, 4, 10, dtype=torch.bfloat16)
    right = torch.randn(1, 8, 4, 10, dtype=torch.bfloat16)
    return StereoHead().to(torch.bfloat16), (left, right)
