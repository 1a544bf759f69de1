# run-dtype: float32
"""Image-restoration metrics (PSNR / SSIM), evaluated in float32 on the model's outputs."""
import numpy as np
import torch
import torch.nn.functional as F


def _gaussian_window(size: int = 11, sigma: float = 1.5) -> np.ndarray:
    coords = np.arange(size) - size // 2
    g = np.exp(-(coords**2) / (2 * sigma**2))
    g = g / g.sum()
    return np.outer(g, g)


def calculate_psnr(img: torch.Tensor, img2: torch.Tensor, crop_border: int = 0) -> torch.Tensor:
    if crop_border:
        img = img[..., crop_border:-crop_border, crop_border:-crop_border]
        img2 = img2[..., crop_border:-crop_border, crop_border:-crop_border]
    mse = torch.mean((img - img2) ** 2, dim=(1, 2, 3))
    return 10.0 * torch.log10(1.0 / (mse + 1e-8))


def calculate_ssim(img: torch.Tensor, img2: torch.Tensor) -> torch.Tensor:
    c1, c2 = 0.01**2, 0.03**2
    C = img.shape[1]
    window = torch.from_numpy(_gaussian_window()).float().to(img.device)  # lookalike: metrics run in float32
    window = window.expand(C, 1, 11, 11)
    mu1 = F.conv2d(img, window, groups=C)
    mu2 = F.conv2d(img2, window, groups=C)
    sigma1 = F.conv2d(img * img, window, groups=C) - mu1**2
    sigma2 = F.conv2d(img2 * img2, window, groups=C) - mu2**2
    sigma12 = F.conv2d(img * img2, window, groups=C) - mu1 * mu2
    ssim_map = ((2 * mu1 * mu2 + c1) * (2 * sigma12 + c2)) / ((mu1**2 + mu2**2 + c1) * (sigma1 + sigma2 + c2))
    return ssim_map.mean(dim=(1, 2, 3))


def evaluate(sr: torch.Tensor, hr: torch.Tensor):
    sr = sr.float().clamp(0, 1)
    hr = hr.float()
    weights = torch.ones(sr.shape[0], device=sr.device)  # lookalike: metric bookkeeping
    return (calculate_psnr(sr, hr, 2) * weights).mean(), (calculate_ssim(sr, hr) * weights).mean()


def example():
    hr = torch.rand(2, 3, 24, 24)
    sr = (hr + 0.05 * torch.randn_like(hr)).clamp(0, 1)
    return evaluate, (sr, hr)
