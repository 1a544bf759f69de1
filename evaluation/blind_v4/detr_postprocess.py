import torch
import torch.nn as nn


class TopKPostProcess(nn.Module):
    """Deformable-DETR style: top-k (query, class) pairs, boxes scaled to the image size."""

    def __init__(self, num_select: int = 10):
        super().__init__()
        self.num_select = num_select

    def forward(self, pred_logits, pred_boxes, target_sizes):
        B, Q, C = pred_logits.shape
        prob = pred_logits.sigmoid()
        scores, topk_indexes = torch.topk(prob.view(B, -1), self.num_select, dim=1)
        topk_boxes = topk_indexes // C  # lookalike: integer indices
        labels = topk_indexes % C
        cx, cy, w, h = pred_boxes.unbind(-1)
        boxes = torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)
        boxes = torch.gather(boxes, 1, topk_boxes[..., None].repeat(1, 1, 4))
        img_h, img_w = target_sizes.unbind(1)
        scale_fct = torch.stack([img_w, img_h, img_w, img_h], dim=1)  # lookalike: int64 sizes
        return scores, labels, boxes * scale_fct[:, None, :]


def example():
    logits = torch.randn(2, 30, 5, dtype=torch.bfloat16)
    boxes = torch.rand(2, 30, 4, dtype=torch.bfloat16)
    sizes = torch.tensor([[480, 640], [512, 512]])
    return TopKPostProcess(), (logits, boxes, sizes)
