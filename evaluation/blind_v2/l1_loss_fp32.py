"""Photometric + smoothness loss reduced in float32 for numerical stability."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class PhotometricLoss(nn.Module):
    def __init__(self, alpha: float = 0.85, smooth_weight: float = 1e-3):
        super().__init__()
        self.alpha = alpha
        self.smooth_weight = smooth_weight

    def forward(self, pred, target, disp):
        with torch.autocast(device_type="cpu", enabled=False):
            p, t, d = pred.float(), target.float(), disp.float()
            l1 = (p - t).abs().mean(1, keepdim=True)
            mu_p, mu_t = F.avg_pool2d(p, 3, 1, 1), F.avg_pool2d(t, 3, 1, 1)
            ssim_proxy = 1 - (2 * mu_p * mu_t + 1e-4) / (mu_p ** 2 + mu_t ** 2 + 1e-4)
            photo = self.alpha * ssim_proxy.mean(1, keepdim=True) / 2 + (1 - self.alpha) * l1
            grad_x = (d[..., :, 1:] - d[..., :, :-1]).abs().mean()
            grad_y = (d[..., 1:, :] - d[..., :-1, :]).abs().mean()
            loss = photo.mean() + self.smooth_weight * (grad_x + grad_y)
        return loss.to(pred.dtype)


def example():
    pred = torch.rand(2, 3, 8, 8, dtype=torch.bfloat16)
    target = torch.rand(2, 3, 8, 8, dtype=torch.bfloat16)
    disp = torch.rand(2, 1, 8, 8, dtype=torch.bfloat16)
    return PhotometricLoss(), (pred, target, disp)
