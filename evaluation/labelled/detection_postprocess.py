import torch
import torch.nn as nn
from torchvision.ops import batched_nms


class DetectionPostProcess(nn.Module):
    def __init__(self, score_thresh: float = 0.05, iou_thresh: float = 0.5, max_det: int = 100):
        super().__init__()
        self.score_thresh = score_thresh
        self.iou_thresh = iou_thresh
        self.max_det = max_det

    def forward(self, boxes, logits, images):
        H, W = images.shape[-2:]
        scale = torch.tensor([W, H, W, H], device=boxes.device)  # lookalike: int64 tensor, bf16 * int64 stays bf16
        boxes = boxes * scale
        scores, labels = logits.sigmoid().max(dim=-1)
        keep = scores > self.score_thresh
        if not keep.any():
            return torch.zeros((0, 6), device=boxes.device)  # expect: DTL001
        boxes, scores, labels = boxes[keep], scores[keep], labels[keep]
        idx = batched_nms(boxes.float(), scores.float(), labels, self.iou_thresh)[: self.max_det]
        return torch.cat([boxes[idx], scores[idx, None], labels[idx, None].to(boxes.dtype)], dim=1)
