"""Mask R-CNN style mask head selecting the mask channel of each instance's class."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskHead(nn.Module):
    def __init__(self, in_ch: int = 8, num_classes: int = 3):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, 8, 3, padding=1)
        self.predictor = nn.Conv2d(8, num_classes, 1)

    def forward(self, roi_feats, labels, gt_masks=None):
        """roi_feats: (N, C, S, S); labels: (N,) int64; gt_masks: (N, S, S) bool or None."""
        logits = self.predictor(F.relu(self.conv(roi_feats)))
        N = logits.shape[0]
        idx = torch.arange(N, device=logits.device)
        mask_logits = logits[idx, labels]
        if gt_masks is None:
            empty = torch.zeros(N, dtype=torch.bool, device=logits.device)
            return mask_logits.sigmoid(), empty
        loss = F.binary_cross_entropy_with_logits(mask_logits, gt_masks.to(mask_logits.dtype))
        return mask_logits.sigmoid(), loss


def example():
    feats = torch.randn(3, 8, 7, 7, dtype=torch.bfloat16)
    labels = torch.tensor([0, 2, 1])
    gt = torch.rand(3, 7, 7) > 0.5
    return MaskHead().to(torch.bfloat16), (feats, labels, gt)


def example_inference():
    feats = torch.randn(2, 8, 7, 7, dtype=torch.bfloat16)
    return MaskHead().to(torch.bfloat16), (feats, torch.tensor([1, 1]))
