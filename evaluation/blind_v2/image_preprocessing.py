"""Preprocessing ops whose configuration arguments are plain Python values."""

from dataclasses import dataclass
from typing import Optional, Tuple

import torch
import torch.nn as nn


@dataclass
class AugConfig:
    flip: bool = True
    crop: Tuple[int, int, int, int] = (1, 1, 7, 7)
    mean: float = 0.5
    std: float = 0.25


def crop_box_tensor(crop: Tuple[int, int, int, int], device: torch.device):
    """Crop window as an int64 (4,) tensor, e.g. for logging / box bookkeeping."""
    return torch.tensor(crop, device=device)


def make_flip_index(num_joints: int, pairs, device: Optional[torch.device] = None):
    index = torch.arange(num_joints, device=device)
    for a, b in pairs:
        index[a], index[b] = b, a
    return index


def normalize(img, mean: float, std: float):
    return (img - mean) / std


class Preprocess(nn.Module):
    def __init__(self, cfg: AugConfig, num_joints: int = 6):
        super().__init__()
        self.cfg = cfg
        self.num_joints = num_joints

    def forward(self, images, keypoints, scale: Optional[float] = None):
        """images: (B, 3, H, W); keypoints: (B, J, 2) pixel coordinates."""
        cfg = self.cfg
        x0, y0, x1, y1 = crop_box_tensor(cfg.crop, images.device).tolist()
        images = images[:, :, y0:y1, x0:x1]
        keypoints = keypoints - keypoints.new_tensor([x0, y0])
        if cfg.flip:
            images = images.flip(-1)
            keypoints = keypoints[:, make_flip_index(self.num_joints, [(1, 2), (3, 4)], images.device)]
            keypoints = torch.stack([(x1 - x0 - 1) - keypoints[..., 0], keypoints[..., 1]], dim=-1)
        if scale is not None:
            keypoints = keypoints * scale
        return normalize(images, cfg.mean, cfg.std), keypoints


def example():
    pre = Preprocess(AugConfig())
    images = torch.rand(2, 3, 8, 8, dtype=torch.bfloat16)
    keypoints = torch.rand(2, 6, 2, dtype=torch.bfloat16) * 8
    return pre, (images, keypoints)
