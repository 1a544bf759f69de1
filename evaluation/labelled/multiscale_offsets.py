import numpy as np
import torch
import torch.nn as nn


class MultiScaleOffsets(nn.Module):
    """Predicts per-scale offsets and maps them through fixed per-scale linear maps."""

    def __init__(self, dim: int, scales=(1.0, 2.0, 4.0)):
        super().__init__()
        self.scales = scales
        self.head = nn.Conv2d(dim, 2 * len(scales), 1)

    def forward(self, feat):
        offs = [np.array([[s, 0.0], [0.0, s]]) for s in self.scales]
        base = torch.tensor(np.stack(offs), device=feat.device)  # expect: DTL004
        pred = self.head(feat).unflatten(1, (len(self.scales), 2))
        out = torch.einsum("sij,bsjhw->bsihw", base, pred)
        scale_vec = np.asarray(self.scales)
        gain = torch.as_tensor(scale_vec, dtype=feat.dtype, device=feat.device)  # lookalike: dtype given
        return out * gain.view(1, -1, 1, 1, 1)
