import torch
import torch.nn.functional as F


def weighted_segmentation_loss(
    outputs: dict[str, torch.Tensor], targets: dict[str, torch.Tensor]
) -> torch.Tensor:
    """Class-balanced cross entropy with an ignore label of 255."""
    logits, labels = outputs["logits"], targets["labels"]
    class_weights = torch.tensor([0.5, 1.0, 2.0, 4.0], device=logits.device)  # lookalike: (was DTL001) a float32 weight in a loss only promotes the loss to float32; losses report only what raises
    per_pixel = F.cross_entropy(logits, labels, reduction="none", ignore_index=255)
    valid = labels != 255
    w = class_weights[labels.clamp(max=3)]
    loss = (per_pixel * w * valid).sum()
    return loss / valid.sum().clamp(min=1)
