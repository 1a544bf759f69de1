import numpy as np
import torch
import torch.nn as nn


class YoloDecode(nn.Module):
    def __init__(self, num_classes: int = 80, stride: int = 32):
        super().__init__()
        self.stride = stride
        self.num_classes = num_classes
        self.anchors = np.array([[116, 90], [156, 198], [373, 326]], dtype=np.float32)  # lookalike: NumPy, not a tensor

    def forward(self, p):
        B, _, H, W = p.shape
        p = p.view(B, 3, 5 + self.num_classes, H, W).permute(0, 1, 3, 4, 2)
        gy, gx = torch.meshgrid(
            torch.arange(H, device=p.device), torch.arange(W, device=p.device), indexing="ij"
        )  # lookalike: integer grid, bf16 + int64 stays bf16
        anchors = torch.from_numpy(self.anchors).to(p.device).view(1, 3, 1, 1, 2)  # expect: DTL004
        xy = (p[..., :2].sigmoid() + torch.stack([gx, gy], dim=-1)) * self.stride
        wh = p[..., 2:4].exp() * anchors
        return torch.cat([xy, wh, p[..., 4:].sigmoid()], dim=-1)
