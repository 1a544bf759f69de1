# run-dtype: float32
"""Post-processing that rescales boxes to the original image and hands them to NumPy for export."""
import json

import numpy as np
import torch


def rescale_and_export(boxes: torch.Tensor, scores: torch.Tensor, labels: torch.Tensor,
                       img_shape, ori_shape, score_thr: float = 0.3):
    scale = torch.tensor([ori_shape[1] / img_shape[1], ori_shape[0] / img_shape[0]] * 2, device=boxes.device)  # lookalike: post-processing to NumPy
    boxes = boxes * scale
    keep = scores > score_thr
    boxes_np = boxes[keep].cpu().numpy()
    scores_np = scores[keep].cpu().numpy()
    labels_np = labels[keep].cpu().numpy()
    records = [
        {"bbox": [round(float(v), 2) for v in b], "score": round(float(s), 4), "category_id": int(c)}
        for b, s, c in zip(boxes_np, scores_np, labels_np)
    ]
    return json.dumps(records), np.concatenate([boxes_np, scores_np[:, None]], axis=1)


def example():
    boxes = torch.tensor([[10.0, 10.0, 50.0, 60.0], [5.0, 5.0, 20.0, 20.0], [0.0, 0.0, 8.0, 8.0]])
    scores = torch.tensor([0.9, 0.2, 0.5])
    labels = torch.tensor([1, 2, 3])
    return rescale_and_export, (boxes, scores, labels, (320, 320), (480, 640))
