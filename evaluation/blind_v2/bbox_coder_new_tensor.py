"""Delta box coder (mmdet style) with means/stds created from the deltas tensor."""

import math

import torch
import torch.nn as nn


class DeltaXYWHBBoxCoder:
    def __init__(self, target_means=(0.0, 0.0, 0.0, 0.0), target_stds=(0.1, 0.1, 0.2, 0.2)):
        self.means = target_means
        self.stds = target_stds

    def decode(self, rois, deltas, max_shape=None, wh_ratio_clip: float = 16 / 1000):
        means = deltas.new_tensor(self.means).view(1, -1)
        stds = deltas.new_tensor(self.stds).view(1, -1)
        denorm = deltas * stds + means
        max_ratio = abs(math.log(wh_ratio_clip))
        dxy, dwh = denorm[:, :2], denorm[:, 2:].clamp(min=-max_ratio, max=max_ratio)
        pxy = (rois[:, :2] + rois[:, 2:]) * 0.5
        pwh = rois[:, 2:] - rois[:, :2]
        gxy = pxy + pwh * dxy
        gwh = pwh * dwh.exp()
        boxes = torch.cat([gxy - gwh * 0.5, gxy + gwh * 0.5], dim=-1)
        if max_shape is not None:
            h, w = max_shape
            limits = boxes.new_tensor([w, h, w, h])
            boxes = torch.minimum(boxes.clamp(min=0), limits)
        return boxes


class RoIBoxHead(nn.Module):
    def __init__(self, dim: int = 16, max_shape=(64, 64)):
        super().__init__()
        self.reg = nn.Linear(dim, 4)
        self.coder = DeltaXYWHBBoxCoder()
        self.max_shape = max_shape

    def forward(self, roi_feats, rois):
        return self.coder.decode(rois, self.reg(roi_feats), self.max_shape)


def example():
    rois = torch.tensor([[4.0, 4.0, 20.0, 30.0], [10.0, 0.0, 40.0, 16.0]], dtype=torch.bfloat16)
    return RoIBoxHead().to(torch.bfloat16), (torch.randn(2, 16, dtype=torch.bfloat16), rois)
