# output-dtype: float32
"""Detection losses computed in float32 on purpose (sigmoid focal loss, GIoU loss)."""
import torch
import torch.nn.functional as F


def sigmoid_focal_loss(pred: torch.Tensor, target: torch.Tensor, alpha: float = 0.25, gamma: float = 2.0) -> torch.Tensor:
    pred = pred.float()  # lookalike: a loss upcasts on purpose
    num_classes = pred.shape[-1]
    one_hot = F.one_hot(target, num_classes + 1)[..., :num_classes].float()
    class_weight = torch.ones(num_classes, device=pred.device)  # lookalike: float32 by design in a loss
    p = pred.sigmoid()
    ce = F.binary_cross_entropy_with_logits(pred, one_hot, reduction="none")
    p_t = p * one_hot + (1 - p) * (1 - one_hot)
    loss = ce * ((1 - p_t) ** gamma)
    alpha_t = alpha * one_hot + (1 - alpha) * (1 - one_hot)
    return (alpha_t * loss * class_weight).sum() / max(1.0, float(one_hot.sum()))


def giou_loss(pred_boxes: torch.Tensor, target_boxes: torch.Tensor, eps: float = 1e-7) -> torch.Tensor:
    pred_boxes, target_boxes = pred_boxes.float(), target_boxes.float()
    lt = torch.max(pred_boxes[:, :2], target_boxes[:, :2])
    rb = torch.min(pred_boxes[:, 2:], target_boxes[:, 2:])
    wh = (rb - lt).clamp(min=0)
    overlap = wh[:, 0] * wh[:, 1]
    area_p = (pred_boxes[:, 2:] - pred_boxes[:, :2]).prod(-1)
    area_t = (target_boxes[:, 2:] - target_boxes[:, :2]).prod(-1)
    union = area_p + area_t - overlap + eps
    enclose = (torch.max(pred_boxes[:, 2:], target_boxes[:, 2:]) - torch.min(pred_boxes[:, :2], target_boxes[:, :2])).prod(-1)
    zero = torch.zeros(1, device=pred_boxes.device)  # lookalike: float32 by design in a loss
    return (1 - overlap / union + (enclose - union) / (enclose + eps) + zero).mean()


def detection_loss(cls_logits: torch.Tensor, labels: torch.Tensor, boxes: torch.Tensor, gt_boxes: torch.Tensor) -> torch.Tensor:
    return sigmoid_focal_loss(cls_logits, labels) + 2.0 * giou_loss(boxes, gt_boxes)


def example():
    logits = torch.randn(8, 4, dtype=torch.bfloat16)
    labels = torch.randint(0, 5, (8,))
    xy = torch.rand(8, 2) * 50
    boxes = torch.cat([xy, xy + 10 + torch.rand(8, 2) * 20], dim=1).to(torch.bfloat16)
    gt = torch.cat([xy + 1, xy + 12], dim=1)
    return detection_loss, (logits, labels, boxes, gt)
