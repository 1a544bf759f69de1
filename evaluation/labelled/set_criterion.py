import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from scipy.optimize import linear_sum_assignment


class SetCriterion(nn.Module):
    """DETR-style matching loss for a single image, with class-frequency reweighting."""

    def forward(self, pred_boxes, pred_logits, gt_boxes, gt_labels):
        cost = torch.cdist(pred_boxes, gt_boxes, p=1) - pred_logits.softmax(-1)[:, gt_labels]
        rows, cols = linear_sum_assignment(cost.detach().float().cpu().numpy())
        rows = torch.as_tensor(rows, device=pred_boxes.device)  # lookalike: integer indices from SciPy
        cols = torch.as_tensor(cols, device=pred_boxes.device)
        l1 = (pred_boxes[rows] - gt_boxes[cols]).abs().sum(-1).mean()
        counts = np.bincount(gt_labels.cpu().numpy(), minlength=pred_logits.shape[-1])
        inv_freq = torch.as_tensor(1.0 / np.maximum(counts, 1), device=pred_logits.device)  # expect: DTL004
        matched = gt_labels[cols]
        ce = F.cross_entropy(pred_logits[rows], matched, reduction="none")
        return l1 + (ce * inv_freq[matched]).mean()
