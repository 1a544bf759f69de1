"""Raw-to-sRGB rendering head of a learned ISP: white balance, colour correction, gamma."""
import numpy as np
import torch
import torch.nn as nn

XYZ2SRGB = np.array([[3.2404542, -1.5371385, -0.4985314],
                     [-0.9692660, 1.8760108, 0.0415560],
                     [0.0556434, -0.2040259, 1.0572252]])


class RawToSRGB(nn.Module):
    def __init__(self, sensor2xyz=((0.6, 0.3, 0.1), (0.2, 0.7, 0.1), (0.0, 0.1, 0.9))):
        super().__init__()
        self.sensor2xyz = np.asarray(sensor2xyz)
        self.denoise = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, raw_rgb: torch.Tensor, wb_gains: torch.Tensor) -> torch.Tensor:
        x = raw_rgb + self.denoise(raw_rgb)
        x = x * wb_gains[:, :, None, None]
        ccm = XYZ2SRGB @ self.sensor2xyz
        ccm = ccm / ccm.sum(axis=1, keepdims=True)
        ccm_t = torch.as_tensor(ccm, device=x.device)  # expect: DTL004
        x = torch.einsum("bchw,dc->bdhw", x, ccm_t)
        return x.clamp(min=1e-8) ** (1.0 / 2.2)


def example():
    isp = RawToSRGB().to(torch.bfloat16)
    raw = torch.rand(2, 3, 16, 16, dtype=torch.bfloat16)
    gains = torch.tensor([[2.0, 1.0, 1.5], [1.8, 1.0, 1.7]], dtype=torch.bfloat16)
    return isp, (raw, gains)
